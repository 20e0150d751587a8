import Foundation
import KeychainServices
#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import KeychainCore
#endif
#if canImport(LocalAuthentication) && !SECURE_STORAGE_FORCE_PORTABLE
import LocalAuthentication
#endif

/// What protects the stored values on this platform: ``SecureStorage/securityProperties``.
public struct SecurityProperties: Sendable, Hashable, CustomStringConvertible {
    /// Where values are kept.
    public enum Backend: String, Sendable, Hashable {
        /// Apple's Keychain (data-protection keychain).
        case appleKeychain
        /// SecureStorage's encrypted keychain file (Linux and other platforms).
        case fileKeychain
    }

    /// Whether protected values can be read now.
    public enum LockStatus: String, Sendable, Hashable {
        /// Every value is readable.
        case unlocked
        /// Locked: only values readable after the first unlock are readable.
        case locked
        /// Not unlocked since the keychain was opened: only `always` values are readable.
        case beforeFirstUnlock
        /// The platform does not say (Apple platforms without UIKit here).
        case unknown
    }

    /// What ties the values to this device.
    public enum DeviceBinding: Sendable, Hashable {
        /// Keys bound to the device's secure hardware (Secure Enclave / UID key).
        case secureHardware
        /// A device key file (0600, outside the data directory), in clear: a copy of it and the
        /// database opens anywhere.
        case keyFile(path: String)
        /// The device secret sealed by a TPM 2.0 (the file at `path` holds only the TPM's blob),
        /// optionally to PCR values (SHA-256 bank): the files open on this machine only.
        case tpm(tcti: String, pcrs: [Int], path: String)
    }

    /// Whether secure hardware (Secure Enclave, a TPM that is not a software simulator) holds
    /// what ties the values to this device.
    public var isProtectedBySecureHardware: Bool {
        switch deviceBinding {
        case .secureHardware: return true
        case .keyFile: return false
        case .tpm(let tcti, _, _):
            #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
            return !TPMDevice(tcti: tcti).isSimulator
            #else
            return true  // never on Apple platforms, where the Secure Enclave is used
            #endif
        }
    }

    /// Where values are kept.
    public let backend: Backend
    /// Whether a passcode (Linux: keychain passphrase) protects them; `nil` when unknown.
    public let passcodeSet: Bool?
    /// Whether protected values can be read now.
    public let lockStatus: LockStatus
    /// What ties the values to this device.
    public let deviceBinding: DeviceBinding
    /// The keychain database, for the file keychain.
    public let keychainPath: String?
    /// Whether a rollback of the whole keychain file would be detected (not yet: no outside anchor).
    public let detectsRollback: Bool

    /// One line per property.
    public var description: String {
        let binding =
            switch deviceBinding {
            case .secureHardware: "secure hardware"
            case .keyFile(let path): "key file \(path)"
            case .tpm(let tcti, let pcrs, let path):
                "TPM \(tcti)\(pcrs.isEmpty ? "" : " (PCR \(pcrs.map(String.init).joined(separator: ",")))"), sealed in \(path)"
            }
        return """
            backend: \(backend.rawValue), passcode set: \(passcodeSet.map(String.init) ?? "unknown"), \
            lock: \(lockStatus.rawValue), device binding: \(binding), secure hardware: \(isProtectedBySecureHardware), keychain: \(keychainPath ?? "system"), \
            rollback detection: \(detectsRollback)
            """
    }
}

extension SecureStorage {
    /// The protection behind every ``SecureStorage`` on this platform.
    public static var securityProperties: SecurityProperties {
        get throws(SecureStorageError) {
            #if canImport(Security) && !SECURE_STORAGE_FORCE_PORTABLE
            var passcodeSet: Bool?
            #if canImport(LocalAuthentication) && !SECURE_STORAGE_FORCE_PORTABLE
            passcodeSet = LAContext().canEvaluatePolicy(.deviceOwnerAuthentication, error: nil)
            #endif
            return SecurityProperties(
                backend: .appleKeychain, passcodeSet: passcodeSet, lockStatus: .unknown,
                deviceBinding: .secureHardware, keychainPath: nil, detectsRollback: false)
            #else
            let location = SecItemEnvironment.openedKeychain?.location ?? KeychainLocation.default
            guard
                SecItemEnvironment.openedKeychain != nil
                    || FileManager.default.fileExists(atPath: location.databaseURL.path)
            else {
                // Asking must not create a keychain: describe the one the first write will create
                // (bound to the TPM this process would use, unless told not to bind).
                let options = KeychainOptions()
                let planned: SecurityProperties.DeviceBinding =
                    if let tpm = options.tpm, options.newKeychainBinding != .keyFile, TPMDevice.isSupported {
                        .tpm(tcti: tpm.tcti, pcrs: [], path: location.deviceKeyURL.path)
                    } else {
                        .keyFile(path: location.deviceKeyURL.path)
                    }
                return SecurityProperties(
                    backend: .fileKeychain, passcodeSet: false, lockStatus: .unlocked,
                    deviceBinding: planned,
                    keychainPath: location.databaseURL.path, detectsRollback: false)
            }
            let keychain: Keychain
            do { keychain = try SecItemEnvironment.keychain() } catch { throw SecureStorageError(error) }
            let lockStatus: SecurityProperties.LockStatus =
                switch keychain.lockState {
                case .unlocked: .unlocked
                case .locked: .locked
                case .beforeFirstUnlock: .beforeFirstUnlock
                }
            let path = keychain.location.deviceKeyURL.path
            let binding: SecurityProperties.DeviceBinding =
                switch keychain.deviceBinding {
                case .keyFile: .keyFile(path: path)
                case .tpm(let device, let pcrs): .tpm(tcti: device.tcti, pcrs: pcrs, path: path)
                }
            return SecurityProperties(
                backend: .fileKeychain, passcodeSet: keychain.hasPassphrase, lockStatus: lockStatus,
                deviceBinding: binding,
                keychainPath: keychain.location.databaseURL.path, detectsRollback: false)
            #endif
        }
    }
}
