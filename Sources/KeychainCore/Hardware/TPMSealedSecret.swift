#if canImport(CTSS2)
import CTSS2
import Foundation
import SecureStorageFoundation

/// A secret of up to 128 bytes sealed by a TPM: only that TPM can unseal it, and, when sealed
/// to PCRs, only while those PCRs hold the values they held at sealing.
struct TPMSealedSecret {
    /// The name of the storage primary key it was sealed under (identifies the TPM and its owner seed).
    var primaryName: Data
    /// PCR indices (SHA-256 bank) the secret is sealed to; empty for none.
    var pcrs: [Int]
    /// The sealed data object.
    var blob: TPMObjectBlob

    /// Seals `secret` on `device`. The secret travels to the TPM in an encrypted session.
    static func seal(_ secret: Data, on device: TPMDevice, pcrs: [Int]) throws(TPMFailure) -> TPMSealedSecret {
        try TPMConnection.with(device) { (tpm: TPMConnection) throws(TPMFailure) -> TPMSealedSecret in
            let primary = try tpm.storagePrimaryKey()
            var template = TPM2B_PUBLIC()
            template.publicArea.type = TPM2_ALG_ID(TPM2_ALG_KEYEDHASH)
            template.publicArea.nameAlg = TPM2_ALG_ID(TPM2_ALG_SHA256)
            var attributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_NODA
            if pcrs.isEmpty {
                attributes |= TPMA_OBJECT_USERWITHAUTH
            } else {
                // Only the PCR policy authorizes unsealing (no plain authorization value).
                let digest = try policyDigest(tpm, pcrs: pcrs)
                try setTPMBytes(
                    &template.publicArea.authPolicy.buffer, size: &template.publicArea.authPolicy.size, digest)
            }
            template.publicArea.objectAttributes = TPMA_OBJECT(attributes)
            template.publicArea.parameters.keyedHashDetail.scheme.scheme = TPM2_ALG_ID(TPM2_ALG_NULL)
            var sensitive = TPM2B_SENSITIVE_CREATE()
            try setTPMBytes(&sensitive.sensitive.data.buffer, size: &sensitive.sensitive.data.size, secret)
            let blob = try tpm.create(
                template, sensitive: &sensitive, under: primary.handle, "Sealing the device secret in the TPM")
            return TPMSealedSecret(primaryName: primary.name, pcrs: pcrs, blob: blob)
        }
    }

    /// Unseals the secret; the response travels encrypted.
    /// - Throws: a failure whose ``TPMFailure/isForeignObject`` is true when another TPM (or a
    ///   cleared one) sealed it, ``TPMFailure/isPolicyFailure`` when the PCRs changed.
    func unseal(on device: TPMDevice) throws(TPMFailure) -> Data {
        try TPMConnection.with(device) { (tpm: TPMConnection) throws(TPMFailure) -> Data in
            let primary = try tpm.storagePrimaryKey(named: primaryName, wrapping: "the device secret")
            let object = try tpm.load(blob, under: primary)
            let session: ESYS_TR
            if pcrs.isEmpty {
                session = try tpm.encryptedSession(saltedBy: primary)
            } else {
                session = try tpm.encryptedSession(saltedBy: primary, type: TPM2_SE(TPM2_SE_POLICY))
                try Self.requireCurrentValues(of: pcrs, in: session, tpm)
            }
            var unsealed: UnsafeMutablePointer<TPM2B_SENSITIVE_DATA>?
            try tpmCheck(
                Esys_Unseal(tpm.context, object, session, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &unsealed),
                "Unsealing the device secret")
            guard let unsealed else { throw TPMFailure(code: 0x101, operation: "Unsealing the device secret") }
            defer {
                SecretWiping.wipe(bytesOf: &unsealed.pointee)
                Esys_Free(unsealed)
            }
            return tpmBytes(of: unsealed.pointee.buffer, count: Int(unsealed.pointee.size))
        }
    }

    /// The policy digest of "these PCRs hold their current values", from a trial session.
    /// Refused when the TPM keeps no SHA-256 bank for one of the PCRs: a policy over PCRs the TPM
    /// does not have would hold whatever they measure.
    private static func policyDigest(_ tpm: TPMConnection, pcrs: [Int]) throws(TPMFailure) -> Data {
        try requireAllocated(tpm, pcrs: pcrs)
        let trial = try tpm.trialSession()
        try requireCurrentValues(of: pcrs, in: trial, tpm)
        var digest: UnsafeMutablePointer<TPM2B_DIGEST>?
        try tpmCheck(
            Esys_PolicyGetDigest(
                tpm.context, trial, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &digest),
            "Computing the PCR policy")
        defer { Esys_Free(digest) }
        guard let digest else { return Data() }
        return tpmBytes(of: digest.pointee.buffer, count: Int(digest.pointee.size))
    }

    /// Adds "these PCRs hold their current values" to a policy (or trial) session.
    private static func requireCurrentValues(of pcrs: [Int], in session: ESYS_TR, _ tpm: TPMConnection)
        throws(TPMFailure)
    {
        var selection = try selection(pcrs)
        var currentValues = TPM2B_DIGEST()  // empty: the PCRs' values now
        try tpmCheck(
            Esys_PolicyPCR(
                tpm.context, session, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                &currentValues, &selection),
            "Checking PCRs \(pcrs.map(String.init).joined(separator: ",")) (SHA-256 bank)")
    }

    /// Reads the PCRs and checks that the TPM answered for every one of them in the SHA-256 bank
    /// (a read returns at most 8 values, so they are read 8 at a time).
    private static func requireAllocated(_ tpm: TPMConnection, pcrs: [Int]) throws(TPMFailure) {
        var allocated: [UInt8] = [0, 0, 0]  // the PCR mask of what the TPM answered for
        let sorted = pcrs.sorted()
        for start in stride(from: 0, to: sorted.count, by: 8) {
            var requested = try selection(Array(sorted[start..<min(start + 8, sorted.count)]))
            var updateCounter: UInt32 = 0
            var answered: UnsafeMutablePointer<TPML_PCR_SELECTION>?
            var values: UnsafeMutablePointer<TPML_DIGEST>?
            try tpmCheck(
                Esys_PCR_Read(
                    tpm.context, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &requested,
                    &updateCounter, &answered, &values), "Reading PCRs \(pcrs.map(String.init).joined(separator: ","))")
            defer {
                Esys_Free(answered)
                Esys_Free(values)
            }
            guard let answered else { continue }
            let banks = withUnsafeBytes(of: answered.pointee.pcrSelections) {
                Array($0.bindMemory(to: TPMS_PCR_SELECTION.self).prefix(Int(answered.pointee.count)))
            }
            for bank in banks where bank.hash == TPM2_ALG_ID(TPM2_ALG_SHA256) {
                withUnsafeBytes(of: bank.pcrSelect) {
                    for index in 0..<min(3, Int(bank.sizeofSelect)) { allocated[index] |= $0[index] }
                }
            }
        }
        let kept = Set(SealedDeviceSecret.pcrs(inMask: allocated))
        let missing = pcrs.filter { !kept.contains($0) }
        guard missing.isEmpty else {
            var failure = TPMFailure(code: 0x1c4, operation: "Reading PCRs")  // TPM_RC_VALUE
            failure.explanation =
                "This TPM keeps no SHA-256 value for PCR \(missing.map(String.init).joined(separator: ", ")), so a policy over it would hold whatever is booted. Nothing was sealed. Allocate the SHA-256 PCR bank (firmware setting, or tpm2_pcrallocate), or bind without that PCR."
            throw failure
        }
    }

    /// A SHA-256 bank selection of PCRs 0–23.
    static func selection(_ pcrs: [Int]) throws(TPMFailure) -> TPML_PCR_SELECTION {
        var selection = TPML_PCR_SELECTION()
        selection.count = 1
        selection.pcrSelections.0.hash = TPM2_ALG_ID(TPM2_ALG_SHA256)
        selection.pcrSelections.0.sizeofSelect = 3
        if let pcr = pcrs.first(where: { !(0..<24).contains($0) }) {
            throw TPMFailure(code: 0x1c4, operation: "Selecting PCR \(pcr) (0–23 exist)")  // TPM_RC_VALUE
        }
        withUnsafeMutableBytes(of: &selection.pcrSelections.0.pcrSelect) {
            $0.copyBytes(from: SealedDeviceSecret.pcrMask(pcrs))
        }
        return selection
    }
}
#endif
