#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import SecureStorageFoundation

/// **Linux only.** The keychain and application identity behind `SecItemAdd`,
/// `SecItemCopyMatching`, `SecItemUpdate` and `SecItemDelete` — what the operating system and
/// the app's signature provide on Apple platforms.
///
/// - The keychain is opened on first use at `KeychainLocation.default` (`SECURE_STORAGE_HOME`,
///   else the XDG directories), unless ``useKeychain(_:)`` chose another, or the environment
///   describes a ``SimulatedDevice`` (`KEYCHAIN_SIMULATED_DEVICE`), whose own throw-away
///   keychain is used then.
/// - The application identity comes from `ApplicationIdentity.current` — the variables
///   `KEYCHAIN_APPLICATION_IDENTIFIER` and `KEYCHAIN_ACCESS_GROUPS` (comma-separated), else the
///   shared identity `local.keychain` — unless ``applicationIdentity`` is set.
///
/// Tests use it to reproduce locked-device behaviour:
///
/// ```swift
/// try SecItemEnvironment.keychain().setPassphrase("pass")
/// try SecItemEnvironment.lock()
/// XCTAssertEqual(SecItemCopyMatching(query as CFDictionary, &result), errSecInteractionNotAllowed)
/// try SecItemEnvironment.unlock(passphrase: "pass")
/// ```
///
/// Wrap code that uses it in `#if !canImport(Security)`: it does not exist on Apple platforms.
public enum SecItemEnvironment {
    private struct State: Sendable {
        var keychain: Keychain?
        var identity: ApplicationIdentity?
        var authenticator: (any Authenticator)?
    }

    private static let state = Locked(State())

    /// The identity whose entitlements SecItem calls are checked against. Unless set, it is
    /// resolved from the environment on first use and kept (an app's identity does not change
    /// while it runs); ``reset()`` resolves it again.
    public static var applicationIdentity: ApplicationIdentity {
        get {
            state.withLock { state in
                if let identity = state.identity { return identity }
                let identity = ApplicationIdentity.current
                state.identity = identity
                return identity
            }
        }
        set { state.withLock { $0.identity = newValue } }
    }

    /// Who authenticates the user for items with `kSecAttrAccessControl` constraints — what
    /// Face ID, Touch ID and the passcode do on Apple platforms (the article "Access
    /// Control"). Setting it applies to the keychain in use and to the default keychain when it
    /// is opened. Its secret must be enrolled in the keychain once (setting a PIN does it), since
    /// protected items are sealed to a key only an enrolled secret opens.
    ///
    /// ```swift
    /// let pin = try PINAuthenticator(keychain: .default) { request in askUserForPIN(request.reason) }
    /// if !pin.isPINSet { try pin.setPIN(chosenPIN, in: SecItemEnvironment.keychain()) }
    /// SecItemEnvironment.authenticator = pin
    /// ```
    public static var authenticator: (any Authenticator)? {
        get { state.withLock { $0.authenticator } }
        set {
            state.withLock { state in
                state.authenticator = newValue
                state.keychain?.authenticator = newValue
            }
        }
    }

    /// Makes every SecItem call use `keychain`; `nil` returns to the default keychain.
    public static func useKeychain(_ keychain: Keychain?) {
        state.withLock { $0.keychain = keychain }
    }

    /// Forgets the chosen keychain and identity, so both are resolved again on next use.
    public static func reset() {
        state.withLock { $0 = State() }
    }

    /// The keychain SecItem calls use if one is open or chosen; unlike ``keychain()`` it never
    /// opens (and so never creates) the default keychain.
    public static var openedKeychain: Keychain? {
        state.withLock { $0.keychain }
    }

    /// The keychain SecItem calls use, opening the default one on first use.
    public static func keychain() throws(KeychainError) -> Keychain {
        try state.withLock { (state: inout State) throws(KeychainError) -> Keychain in
            if let keychain = state.keychain { return keychain }
            let keychain: Keychain
            if let device = try SimulatedDevice.fromEnvironment() {
                keychain = try SimulatedDeviceKeychain.make(for: device)
            } else {
                keychain = try Keychain(location: .default)
            }
            if let authenticator = state.authenticator { keychain.authenticator = authenticator }
            state.keychain = keychain
            return keychain
        }
    }

    /// Locks the keychain, as locking the device does: class A and passcode-set items answer
    /// `errSecInteractionNotAllowed` until ``unlock(passphrase:)``.
    public static func lock() throws(KeychainError) { try keychain().lock() }

    /// Unlocks the keychain with its passphrase.
    public static func unlock(passphrase: String) throws(KeychainError) {
        try keychain().unlock(passphrase: passphrase)
    }

    /// The lock state of the keychain.
    public static var lockState: LockState {
        get throws(KeychainError) { try keychain().lockState }
    }
}
#endif
