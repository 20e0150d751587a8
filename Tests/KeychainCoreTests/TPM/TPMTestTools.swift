#if canImport(CTSS2)
import CTSS2
import Foundation
import TPMTestSupport
import XCTest
@testable import KeychainCore

extension SoftwareTPM {
    /// This TPM as the keychain names it.
    var device: TPMDevice { TPMDevice(tcti: tcti) }

    /// Extends a PCR (SHA-256 bank) with a measurement, as a boot component would: a change of
    /// the Secure Boot state, seen from the TPM.
    func extendPCR(_ index: Int) throws {
        try TPMConnection.with(device) { (tpm: TPMConnection) throws(TPMFailure) in
            var digests = TPML_DIGEST_VALUES()
            digests.count = 1
            digests.digests.0.hashAlg = TPM2_ALG_ID(TPM2_ALG_SHA256)
            withUnsafeMutableBytes(of: &digests.digests.0.digest) { $0.storeBytes(of: 0x5a, as: UInt8.self) }
            try tpmCheck(Esys_PCR_Extend(tpm.context, ESYS_TR(ESYS_TR_PCR0) + ESYS_TR(index), ESYS_TR(ESYS_TR_PASSWORD),
                                         ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &digests), "Extending PCR \(index)")
        }
    }
}

extension TestKeychain {
    /// The keychain's data and state directories copied to a new place, as someone copying the
    /// files to another machine would: the location of the copy.
    func copyFiles() throws -> KeychainLocation {
        keychain.checkpoint()
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("kc-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        for part in ["data", "state"] {
            try FileManager.default.copyItem(at: directory.appendingPathComponent(part), to: copy.appendingPathComponent(part))
        }
        return KeychainLocation(directory: copy)
    }
}
#endif
