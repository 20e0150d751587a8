import Crypto
import Foundation
import Logging
#if canImport(CTSS2)
import CTSS2
import SecureStorageFoundation
#endif

/// The device secret as a TPM sealed it: what a bound keychain's device key file holds.
struct SealedDeviceSecret: Equatable {
    /// The TPM name of the storage primary key it is sealed under.
    var primaryName: Data
    /// PCRs (SHA-256 bank) the unsealing policy requires unchanged; empty for none.
    var pcrs: [Int]
    /// The sealed object, `TPM2B_PUBLIC ‖ TPM2B_PRIVATE`.
    var blob: Data

    /// PCRs 0–23 as the 3-byte mask TPMs and the device key file use: PCR n is bit n % 8 of byte n / 8.
    static func pcrMask(_ pcrs: [Int]) -> [UInt8] {
        var mask: [UInt8] = [0, 0, 0]
        for pcr in pcrs where (0..<24).contains(pcr) { mask[pcr / 8] |= 1 << (pcr % 8) }
        return mask
    }

    /// The PCRs a 3-byte mask selects, in order.
    static func pcrs(inMask mask: [UInt8]) -> [Int] {
        (0..<min(24, mask.count * 8)).filter { mask[$0 / 8] & (1 << ($0 % 8)) != 0 }
    }

    /// Seals `key` on `device`, then unseals it once to prove the TPM gives it back: a binding
    /// is never written that does not open.
    static func seal(_ key: SymmetricKey, on device: TPMDevice, pcrs: [Int]) throws(KeychainError) -> SealedDeviceSecret
    {
        // Without a fallback there is always a result or an error.
        try seal(key, on: device, pcrs: pcrs, unlessUnusable: false)!
    }

    /// Seals a new keychain's secret under ``NewKeychainBinding/automatic``: `nil` when this TPM
    /// cannot be used at all (it cannot be reached, or its owner hierarchy has a password), so
    /// the keychain keeps a key file. Any other failure (a full or failing TPM) is an error: a
    /// keychain is never left unbound silently because the TPM was busy.
    static func sealIfUsable(_ key: SymmetricKey, on device: TPMDevice) throws(KeychainError) -> SealedDeviceSecret? {
        try seal(key, on: device, pcrs: [], unlessUnusable: true)
    }

    private static func seal(_ key: SymmetricKey, on device: TPMDevice, pcrs: [Int], unlessUnusable: Bool)
        throws(KeychainError) -> SealedDeviceSecret?
    {
        #if canImport(CTSS2)
        let sealed: SealedDeviceSecret
        do {
            var secret = key.withUnsafeBytes { Data($0) }
            defer { SecretWiping.wipe(&secret) }
            let object = try TPMSealedSecret.seal(secret, on: device, pcrs: pcrs)
            sealed = SealedDeviceSecret(primaryName: object.primaryName, pcrs: pcrs, blob: try object.blob.marshalled())
        } catch {
            if unlessUnusable && (error.isUnreachable || error.isAuthorizationFailure) {
                LibraryLogging.logger(component: "KeychainCore").warning(
                    "the new keychain's device secret stays in a key file: the TPM cannot be used",
                    metadata: ["tpm": "\(device.tcti)", "reason": "\(error)"])
                return nil
            }
            throw keychainError(error, device: device, path: nil)
        }
        var unsealed = try sealed.unseal(on: device, path: nil)
        defer { SecretWiping.wipe(&unsealed) }
        // Compared in place: no further copy of the secret.
        let matches = key.withUnsafeBytes { expected in
            unsealed.withUnsafeBytes { actual in expected.elementsEqual(actual) }
        }
        guard matches else {
            throw KeychainError.tpmUnsealFailed(tcti: device.tcti)
        }
        return sealed
        #else
        if unlessUnusable { return nil }
        throw KeychainError.noTPMSupportInBuild()
        #endif
    }

    /// The device secret, unsealed by `device`.
    /// - Throws: `.keychainUnavailable` saying what to do: another TPM (a copied file or a
    ///   cleared TPM), changed PCRs, or a TPM that cannot be reached.
    func unsealKey(on device: TPMDevice, path: String) throws(KeychainError) -> SymmetricKey {
        var secret = try unseal(on: device, path: path)
        defer { SecretWiping.wipe(&secret) }
        guard secret.count == 32 else {
            throw KeychainError.deviceKeyFileUnsealedWrongSize(path: path, byteCount: secret.count)
        }
        return SymmetricKey(data: secret)
    }

    private func unseal(on device: TPMDevice, path: String?) throws(KeychainError) -> Data {
        #if canImport(CTSS2)
        guard CTSS2_load() == 1 else {
            throw KeychainError.tpmNotLoaded(tpmResponse: String(cString: Tss2_RC_Decode(CTSS2_RC_NOT_LOADED)))
        }
        guard let object = TPMObjectBlob(marshalled: blob) else {
            throw KeychainError.sealedDeviceSecretDamaged(file: path ?? "the device key file")
        }
        do {
            return try TPMSealedSecret(primaryName: primaryName, pcrs: pcrs, blob: object).unseal(on: device)
        } catch {
            throw Self.keychainError(error, device: device, path: path)
        }
        #else
        throw KeychainError.deviceKeyFileNeedsTPMSupport(path: path ?? "")
        #endif
    }

    #if canImport(CTSS2)
    /// What a TPM failure means for the keychain, and what to do about it.
    private static func keychainError(_ failure: TPMFailure, device: TPMDevice, path: String?) -> KeychainError {
        let file = path.map { "The device key file \($0)" } ?? "The device secret"
        if failure.isForeignObject {
            return KeychainError.sealedByAnotherTPM(file: file)
        }
        if failure.isPolicyFailure {
            return KeychainError.pcrValuesChanged(file: file)
        }
        if failure.isUnreachable {
            let what = failure.explanation ?? "The TPM at \(device.tcti) cannot be reached (\(failure.decoded))."
            return KeychainError.tpmUnreachableAdvice(what: what)
        }
        if failure.isLockout {
            return KeychainError.tpmLockout(tcti: device.tcti)
        }
        if failure.isAuthorizationFailure {
            return KeychainError.tpmAuthorizationRefused(
                tcti: device.tcti, file: path.map { "the device key file \($0)" } ?? "the sealed object")
        }
        if let explanation = failure.explanation {
            return KeychainError.tpmFailureExplained(explanation)
        }
        return KeychainError.tpmFailed(failure: failure, tcti: device.tcti)
    }
    #endif
}
