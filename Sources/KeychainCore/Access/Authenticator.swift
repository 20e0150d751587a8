import Foundation

/// Stands in for biometry and the device passcode off Apple platforms: the keychain asks it
/// before returning the data of an item whose ``AccessPolicy`` requires user authentication.
///
/// Implement it to prompt for a PIN, touch a hardware token, or — in tests — answer from a
/// script. ``PINAuthenticator`` is a ready-made passcode authenticator.
///
/// ```swift
/// struct TouchKey: Authenticator {
///     var availableMethods: Set<AuthenticationMethod> { [.biometry] }
///     var enrollmentState: Data? { currentFingerprintSetHash() }
///     func authenticate(_ request: AuthenticationRequest) -> AuthenticationOutcome {
///         waitForTouch(reason: request.reason) ? .authenticated(.biometry) : .canceled
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

    /// Asks the user to authenticate with one of `request.allowedMethods`.
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
    /// What is being accessed: `"data"` or `"private key"`.
    public let operation: String

    /// Creates a request.
    public init(allowedMethods: Set<AuthenticationMethod>, reason: String, operation: String) {
        self.allowedMethods = allowedMethods
        self.reason = reason
        self.operation = operation
    }
}

/// How an authentication ended.
public enum AuthenticationOutcome: Sendable, Hashable {
    /// The user authenticated with this method.
    case authenticated(AuthenticationMethod)
    /// The user cancelled (`errSecUserCanceled`, -128).
    case canceled
    /// The user failed to authenticate, or is locked out (`errSecAuthFailed`, -25293).
    case failed
}
