#if canImport(CTSS2)
import CTSS2
import Foundation

/// An object wrapped by a TPM (a sealed secret or a key): its public area and its private area,
/// encrypted and integrity-protected under the storage primary key of that TPM alone.
///
/// Stored as tpm2-tss marshals them: `TPM2B_PUBLIC ‖ TPM2B_PRIVATE`, each a big-endian size and
/// its bytes.
struct TPMObjectBlob {
    var publicArea: TPM2B_PUBLIC
    var privateArea: TPM2B_PRIVATE

    init(publicArea: TPM2B_PUBLIC, privateArea: TPM2B_PRIVATE) {
        self.publicArea = publicArea
        self.privateArea = privateArea
    }

    /// Decodes `TPM2B_PUBLIC ‖ TPM2B_PRIVATE`; `nil` when the bytes are not exactly that.
    init?(marshalled bytes: Data) {
        var publicArea = TPM2B_PUBLIC()
        var privateArea = TPM2B_PRIVATE()
        var offset = 0
        let array = [UInt8](bytes)
        guard Tss2_MU_TPM2B_PUBLIC_Unmarshal(array, array.count, &offset, &publicArea) == TSS2_RC_SUCCESS,
            Tss2_MU_TPM2B_PRIVATE_Unmarshal(array, array.count, &offset, &privateArea) == TSS2_RC_SUCCESS,
            offset == array.count
        else { return nil }
        self.init(publicArea: publicArea, privateArea: privateArea)
    }

    /// `TPM2B_PUBLIC ‖ TPM2B_PRIVATE`.
    func marshalled() throws(TPMFailure) -> Data {
        var buffer = [UInt8](repeating: 0, count: MemoryLayout<TPM2B_PUBLIC>.size + MemoryLayout<TPM2B_PRIVATE>.size)
        var offset = 0
        var publicArea = self.publicArea
        var privateArea = self.privateArea
        try tpmCheck(Tss2_MU_TPM2B_PUBLIC_Marshal(&publicArea, &buffer, buffer.count, &offset), "Encoding a TPM object")
        try tpmCheck(
            Tss2_MU_TPM2B_PRIVATE_Marshal(&privateArea, &buffer, buffer.count, &offset), "Encoding a TPM object")
        return Data(buffer.prefix(offset))
    }
}
#endif
