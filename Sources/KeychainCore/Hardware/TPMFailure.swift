#if canImport(CTSS2)
import CTSS2

/// A tpm2-tss response code from one TPM operation, with the few meanings the keychain acts on.
struct TPMFailure: Error, CustomStringConvertible {
    /// The TSS2_RC as returned (layer in the top byte, TPM format-1 codes carry a
    /// handle/parameter/session number).
    let code: UInt32
    /// What was being done, for the message.
    let operation: String
    /// A complete explanation, when the failure is the keychain's own finding rather than a TPM answer.
    var explanation: String? = nil

    /// The TPM format-1 code without its handle, parameter or session number.
    private var baseCode: UInt32 {
        guard code >> 16 == 0 else { return code }
        return code & 0x80 != 0 ? code & 0xbf : code
    }

    /// The object was wrapped by another TPM, or by this one before its owner hierarchy was cleared.
    var isForeignObject: Bool { baseCode == CTSS2_RC_INTEGRITY }
    /// A policy (for example the PCR values it was sealed to) is not satisfied.
    var isPolicyFailure: Bool { baseCode == CTSS2_RC_POLICY_FAIL }
    /// An authorization value was refused (never counted towards dictionary-attack lockout:
    /// every object the keychain creates is `noDA`).
    var isAuthorizationFailure: Bool { baseCode == CTSS2_RC_AUTH_FAIL || baseCode == CTSS2_RC_BAD_AUTH }
    /// The TPM is in dictionary-attack lockout (an owner-hierarchy authorization failed too often).
    var isLockout: Bool { baseCode == CTSS2_RC_LOCKOUT }
    /// The TPM's object, session or general memory is full (`TPM_RC_OBJECT_MEMORY`,
    /// `TPM_RC_SESSION_MEMORY`, `TPM_RC_MEMORY`).
    var isOutOfMemory: Bool { [0x902, 0x903, 0x904].contains(baseCode) }
    /// A peer point that is not on the curve.
    var isInvalidPoint: Bool { baseCode == CTSS2_RC_ECC_POINT }
    /// The TPM could not be reached or did not answer in time (a TCTI failure, or the ESAPI's
    /// I/O error or timeout; not a TPM answer).
    var isUnreachable: Bool {
        let layer = code >> 16
        let base = code & 0xffff
        return layer == 10 || layer == 7 && (base == 9 || base == 10)  // TCTI layer; ESAPI "try again", "I/O error"
    }

    /// tpm2-tss's decoding of the code, for example `tpm:parameter(1):integrity check failed`.
    var decoded: String { String(cString: Tss2_RC_Decode(code)) }

    var description: String {
        explanation ?? "\(operation) failed (TPM response 0x\(String(code, radix: 16)): \(decoded))"
    }
}

/// Throws a ``TPMFailure`` unless `code` is success.
func tpmCheck(_ code: TSS2_RC, _ operation: @autoclosure () -> String) throws(TPMFailure) {
    guard code == TSS2_RC_SUCCESS else { throw TPMFailure(code: code, operation: operation()) }
}
#endif
