#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import SecureStorageFoundation

/// **Linux only.** `LAContext` for `kSecUseAuthenticationContext`: an authentication the keychain
/// reuses across calls (see `AuthenticationContext`). Code that imports LocalAuthentication on
/// Apple platforms uses this name here. Its policy calls ask the authenticator of the keychain in
/// use (``SecItemEnvironment/keychain()``): a PIN, a ``SimulatedDevice``, or your own.
public typealias LAContext = AuthenticationContext

/// `NSErrorPointer`, which Foundation has only on Apple platforms: `var error: NSError?` passed
/// as `&error`.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// `LAPolicy`: what `evaluatePolicy` asks of the user.
public enum LAPolicy: Int, Sendable, Hashable {
    /// Biometry only.
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// Biometry or the device passcode.
    case deviceOwnerAuthentication = 2

    var methods: Set<AuthenticationMethod> {
        switch self {
        case .deviceOwnerAuthenticationWithBiometrics: [.biometry]
        case .deviceOwnerAuthentication: [.biometry, .passcode]
        }
    }
}

/// `LABiometryType`: the kind of biometry the device offers.
public enum LABiometryType: Int, Sendable, Hashable {
    /// No biometry.
    case none = 0
    /// A fingerprint reader.
    case touchID = 1
    /// Face recognition.
    case faceID = 2
    /// Iris recognition.
    case opticID = 4
}

/// `LAErrorDomain`.
public let LAErrorDomain = "com.apple.LocalAuthentication"

/// `LAError`: why a policy cannot be or was not evaluated, with Apple's codes.
public struct LAError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Apple's `LAError.Code` values.
    public enum Code: Int, Sendable, Hashable {
        /// The user did not authenticate.
        case authenticationFailed = -1
        /// The user cancelled.
        case userCancel = -2
        /// The user chose the fallback (enter a password).
        case userFallback = -3
        /// The system cancelled.
        case systemCancel = -4
        /// The device has no passcode (here: no authenticator).
        case passcodeNotSet = -5
        /// The device has no biometry.
        case biometryNotAvailable = -6
        /// No biometric identity is enrolled.
        case biometryNotEnrolled = -7
        /// Too many failed attempts.
        case biometryLockout = -8
        /// The app cancelled.
        case appCancel = -9
        /// The context was invalidated.
        case invalidContext = -10
        /// Interaction is not allowed (`interactionNotAllowed`).
        case notInteractive = -1004
    }

    /// The code.
    public let code: Code
    /// What happened, for logs.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String = "") {
        self.code = code
        self.message = message
    }

    /// The error as an `NSError` in ``LAErrorDomain``, as `canEvaluatePolicy(_:error:)` reports it.
    public var nsError: NSError {
        NSError(domain: LAErrorDomain, code: code.rawValue, userInfo: [NSLocalizedDescriptionKey: message])
    }

    /// `LAError -2 (userCancel): …`.
    public var description: String { "LAError \(code.rawValue) (\(code)): \(message)" }
}

extension AuthenticationContext {
    /// `LAContext.touchIDAuthenticationAllowableReuseDuration`: `reuseDuration`.
    public var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
        get { reuseDuration }
        set { reuseDuration = newValue }
    }

    /// The biometry the keychain's authenticator offers: `.touchID` when it offers biometry
    /// (a fingerprint reader is what Linux machines have), else `.none`.
    public var biometryType: LABiometryType {
        ((try? SecItemEnvironment.keychain().authenticator?.availableMethods.contains(.biometry)) ?? false) == true
            ? .touchID : .none
    }

    /// `evaluatedPolicyDomainState`: a value that changes when the enrolled biometry changes
    /// (the authenticator's `Authenticator.enrollmentState`).
    public var evaluatedPolicyDomainState: Data? {
        (try? SecItemEnvironment.keychain().authenticator?.enrollmentState) ?? nil
    }

    /// Whether `policy` can be evaluated now; when not, `error` says why (``LAError`` codes in
    /// ``LAErrorDomain``): `passcodeNotSet`, `biometryNotAvailable`, `biometryNotEnrolled`,
    /// `invalidContext`.
    public func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
        if let failure = evaluationObstacle(policy) {
            error?.pointee = failure.nsError
            return false
        }
        return true
    }

    /// Asks the user as `policy` says, then calls `reply` (on a global queue). A success is
    /// recorded in this context: keychain reads through it do not prompt again while
    /// `reuseDuration` lasts.
    public func evaluatePolicy(
        _ policy: LAPolicy, localizedReason: String, reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        DispatchQueue.global(qos: .userInitiated).async {
            do throws(LAError) {
                try self.evaluate(policy, reason: localizedReason)
                reply(true, nil)
            } catch {
                reply(false, error.nsError)
            }
        }
    }

    /// `try await context.evaluatePolicy(policy, localizedReason:)`: `true`, or throws the
    /// ``LAError``.
    public func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws(LAError) -> Bool {
        let result = await offloaded {
            Result { () throws(LAError) in try self.evaluate(policy, reason: localizedReason) }
        }
        try result.get()
        return true
    }

    private func evaluate(_ policy: LAPolicy, reason: String) throws(LAError) {
        if let obstacle = evaluationObstacle(policy) { throw obstacle }
        do {
            try SecItemEnvironment.keychain().evaluateAuthentication(policy.methods, context: self, reason: reason)
        } catch {
            switch error.code {
            case .userCanceled: throw LAError(.userCancel, error.message)
            case .interactionNotAllowed: throw LAError(.notInteractive, error.message)
            default: throw LAError(.authenticationFailed, error.message)
            }
        }
    }

    private func evaluationObstacle(_ policy: LAPolicy) -> LAError? {
        if isInvalidated { return LAError(.invalidContext, "The context was invalidated.") }
        guard let keychain = try? SecItemEnvironment.keychain(), let authenticator = keychain.authenticator,
            !authenticator.availableMethods.isEmpty
        else {
            return LAError(.passcodeNotSet, "No authenticator is installed: the device has no passcode.")
        }
        if policy == .deviceOwnerAuthenticationWithBiometrics && !authenticator.availableMethods.contains(.biometry) {
            return authenticator.enrollmentState == nil && authenticator.availableMethods.contains(.passcode)
                ? LAError(.biometryNotEnrolled, "No biometry is enrolled.")
                : LAError(.biometryNotAvailable, "The authenticator offers no biometry.")
        }
        return nil
    }
}
#endif
