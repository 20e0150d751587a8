import Foundation

/// Stands in for biometry and the device passcode off Apple platforms: the keychain asks it
/// before returning the data of an item whose ``AccessPolicy`` requires user authentication.
///
/// Authenticating is not a yes or no: on success the authenticator releases the secret of its
/// enrolment (``AuthenticationSecret``), and only that secret unwraps the keychain's presence
/// key, without which a protected item's data key does not unwrap. An authenticator is
/// enrolled once with ``Keychain/enroll(_:for:authorizedBy:authentication:)``;
/// ``PINAuthenticator`` does it when its PIN is set.
///
/// Implement it to prompt for a PIN, touch a hardware token that derives a secret (a FIDO2
/// `hmac-secret`), or — in tests — answer from a script.
///
/// ```swift
/// struct TouchKey: Authenticator {
///     var availableMethods: Set<AuthenticationMethod> { [.biometry] }
///     var enrollmentState: Data? { currentFingerprintSetHash() }
///     func enrollmentIdentifier(for method: AuthenticationMethod) -> Data? { method == .biometry ? tokenID : nil }
///     func authenticate(_ request: AuthenticationRequest) -> AuthenticationOutcome {
///         guard let secret = waitForTouchAndDeriveSecret(reason: request.reason) else { return .canceled }
///         return .authenticated(.biometry, try! AuthenticationSecret(identifier: tokenID, keyMaterial: secret))
///     }
/// }
/// keychain.authenticator = TouchKey()
/// ```
///
/// Calls come from the thread that reads the item and may block while the user answers.
public protocol Authenticator: Sendable {
    /// The methods this authenticator can perform right now (e.g. no ``AuthenticationMethod/biometry``
    /// while nothing is enrolled).
    var availableMethods: Set<AuthenticationMethod> { get }

    /// An opaque value that changes whenever the set of enrolled biometric identities changes
    /// (Apple's `evaluatedPolicyDomainState`); `nil` when nothing is enrolled. Items protected
    /// with ``AccessPolicy/Flags/biometryCurrentSet`` record it and become permanently
    /// unreadable when it changes.
    var enrollmentState: Data? { get }

    /// The identifier of the enrolment this authenticator holds for `method` (the
    /// ``AuthenticationSecret/identifier`` its secrets for that method carry), or `nil` when it
    /// holds none (for a PIN: no PIN file). The keychain compares it with the enrolment it
    /// recorded before prompting, so a deleted or replaced enrolment is reported as such
    /// instead of costing the user an attempt.
    func enrollmentIdentifier(for method: AuthenticationMethod) -> Data?

    /// Asks the user to authenticate with one of `request.allowedMethods`; on success returns
    /// the method used and the secret of its enrolment.
    func authenticate(_ request: AuthenticationRequest) -> AuthenticationOutcome
}

/// A way of authenticating the user.
public enum AuthenticationMethod: String, Sendable, Hashable, CaseIterable {
    /// Biometry (Apple: Touch ID / Face ID / Optic ID), or what the app deems equivalent.
    case biometry
    /// The device passcode (here: a PIN or passphrase the authenticator checks).
    case passcode
}

/// What the keychain asks an ``Authenticator`` for.
public struct AuthenticationRequest: Sendable, Hashable {
    /// The methods that satisfy this request; the authenticator must use one of them.
    public let allowedMethods: Set<AuthenticationMethod>
    /// Why the app asks (`kSecUseOperationPrompt` / the context's reason), to show the user.
    public let reason: String
    /// What is being accessed: `"data"`, `"private key"`, `"access control"` or `"enrolment"`.
    public let operation: String

    /// Creates a request.
    public init(allowedMethods: Set<AuthenticationMethod>, reason: String, operation: String) {
        self.allowedMethods = allowedMethods
        self.reason = reason
        self.operation = operation
    }
}

/// How an authentication ended.
public enum AuthenticationOutcome: Sendable, Equatable {
    /// The user authenticated with this method, which released this enrolment secret.
    case authenticated(AuthenticationMethod, AuthenticationSecret)
    /// The user cancelled (`errSecUserCanceled`, -128).
    case canceled
    /// The user failed to authenticate, or is locked out (`errSecAuthFailed`, -25293).
    case failed
}
