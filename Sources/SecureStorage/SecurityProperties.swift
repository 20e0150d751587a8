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
        /// A device key file (0600, outside the data directory).
        case keyFile(path: String)
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
        let binding = switch deviceBinding {
        case .secureHardware: "secure hardware"
        case .keyFile(let path): "key file \(path)"
        }
        return """
            backend: \(backend.rawValue), passcode set: \(passcodeSet.map(String.init) ?? "unknown"), \
            lock: \(lockStatus.rawValue), device binding: \(binding), keychain: \(keychainPath ?? "system"), \
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
            return SecurityProperties(backend: .appleKeychain, passcodeSet: passcodeSet, lockStatus: .unknown,
                                      deviceBinding: .secureHardware, keychainPath: nil, detectsRollback: false)
            #else
            let location = SecItemEnvironment.openedKeychain?.location ?? KeychainLocation.default
            guard SecItemEnvironment.openedKeychain != nil || FileManager.default.fileExists(atPath: location.databaseURL.path) else {
                // Asking must not create a keychain: describe the one the first write will create.
                return SecurityProperties(backend: .fileKeychain, passcodeSet: false, lockStatus: .unlocked,
                                          deviceBinding: .keyFile(path: location.deviceKeyURL.path),
                                          keychainPath: location.databaseURL.path, detectsRollback: false)
            }
            let keychain: Keychain
            do { keychain = try SecItemEnvironment.keychain() } catch { throw .underlying(error.osStatus) }
            let lockStatus: SecurityProperties.LockStatus = switch keychain.lockState {
            case .unlocked: .unlocked
            case .locked: .locked
            case .beforeFirstUnlock: .beforeFirstUnlock
            }
            return SecurityProperties(backend: .fileKeychain, passcodeSet: keychain.hasPassphrase, lockStatus: lockStatus,
                                      deviceBinding: .keyFile(path: keychain.location.deviceKeyURL.path),
                                      keychainPath: keychain.location.databaseURL.path, detectsRollback: false)
            #endif
        }
    }
}
