import Foundation
import KeychainCore

/// A test double for ``Authenticator``: answers from a script, counts every prompt and records
/// what each asked for. Its enrolled biometry can be changed like a user re-enrolling a finger.
///
/// It holds a real secret per method, like a hardware authenticator: ``enroll(in:)`` enrols
/// them in a keychain, and a scripted success releases them. ``alwaysYes()`` is the attacker's
/// version: it says yes to everything and claims the keychain's enrolments, without their secrets.
public final class ScriptedAuthenticator: Authenticator, @unchecked Sendable {
    /// A success with `method`, releasing this authenticator's secret for it.
    public static func success(_ method: AuthenticationMethod) -> Answer { .success(method) }

    /// What a scripted prompt answers.
    public enum Answer: Sendable, Equatable {
        case success(AuthenticationMethod)
        case canceled
        case failed
    }

    private struct State {
        var answers: [Answer] = []
        var fallback: Answer = .success(.biometry)
        var requests: [AuthenticationRequest] = []
        var methods: Set<AuthenticationMethod> = [.biometry, .passcode]
        var enrollment: Data? = Data("finger-1".utf8)
        var secrets: [AuthenticationMethod: AuthenticationSecret]
        var claimedIdentifiers: [AuthenticationMethod: Data]?
    }
    private let lock = NSLock()
    private var state: State

    /// Creates an authenticator offering biometry and passcode, enrolled as "finger-1", that
    /// authenticates every prompt, with a fresh random secret per method.
    public init() {
        var secrets: [AuthenticationMethod: AuthenticationSecret] = [:]
        for method in AuthenticationMethod.allCases { secrets[method] = Self.randomSecret() }
        state = State(secrets: secrets)
    }

    private static func randomSecret() -> AuthenticationSecret {
        try! AuthenticationSecret(
            identifier: Data((0..<16).map { _ in UInt8.random(in: 0...255) }),
            keyMaterial: Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
    }

    /// The attacker's authenticator: says yes to every prompt and reports the enrolment
    /// identifiers `keychain` recorded (they are not secret), but holds none of their secrets.
    public static func alwaysYes(claimingEnrolmentsOf keychain: Keychain) -> ScriptedAuthenticator {
        let forger = ScriptedAuthenticator()
        forger.withState { state in
            var claimed: [AuthenticationMethod: Data] = [:]
            for method in AuthenticationMethod.allCases {
                if let identifier = keychain.enrollmentIdentifiers(for: method).first {
                    claimed[method] = identifier
                    // Its "secret" carries the right identifier and random key material.
                    state.secrets[method] = try! AuthenticationSecret(
                        identifier: identifier, keyMaterial: Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
                }
            }
            state.claimedIdentifiers = claimed
        }
        return forger
    }

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// Enrols this authenticator's secrets for `methods` in `keychain` (the first one creates
    /// the presence key; the others are authorized by the first one's secret, without a prompt).
    public func enroll(in keychain: Keychain, methods: [AuthenticationMethod] = [.biometry, .passcode]) throws {
        let secrets = withState { $0.secrets }
        var authorizing: (method: AuthenticationMethod, secret: AuthenticationSecret)?
        if let enrolled = keychain.enrolledMethods.first(where: {
            keychain.enrollmentIdentifiers(for: $0).contains(secrets[$0]!.identifier)
        }) {
            authorizing = (enrolled, secrets[enrolled]!)
        }
        for method in methods where !keychain.enrollmentIdentifiers(for: method).contains(secrets[method]!.identifier) {
            try keychain.enroll(secrets[method]!, for: method, authorizedBy: authorizing)
            authorizing = authorizing ?? (method, secrets[method]!)
        }
    }

    /// This authenticator's secret for `method`.
    public func secret(for method: AuthenticationMethod) -> AuthenticationSecret { withState { $0.secrets[method]! } }

    /// Answers the next prompts in order; after them every prompt gets `fallback`.
    public func script(_ answers: [Answer], fallback: Answer? = nil) {
        withState {
            $0.answers = answers
            if let fallback { $0.fallback = fallback }
        }
    }

    /// Changes the enrolled biometry.
    public func enroll(_ name: String?) { withState { $0.enrollment = name.map { Data($0.utf8) } } }

    /// Sets the methods offered.
    public func offer(_ methods: Set<AuthenticationMethod>) { withState { $0.methods = methods } }

    public var prompts: Int { withState { $0.requests.count } }
    public var requests: [AuthenticationRequest] { withState { $0.requests } }

    public var availableMethods: Set<AuthenticationMethod> { withState { $0.methods } }
    public var enrollmentState: Data? { withState { $0.enrollment } }

    public func enrollmentIdentifier(for method: AuthenticationMethod) -> Data? {
        withState { state in
            if let claimed = state.claimedIdentifiers { return claimed[method] }
            return state.secrets[method]?.identifier
        }
    }

    public func authenticate(_ request: AuthenticationRequest) -> AuthenticationOutcome {
        withState { state in
            state.requests.append(request)
            let answer = state.answers.isEmpty ? state.fallback : state.answers.removeFirst()
            switch answer {
            case .success(var method):
                // The double authenticates with a method the request allows, as a real one would.
                if !request.allowedMethods.contains(method),
                    let allowed = request.allowedMethods.sorted(by: { $0.rawValue < $1.rawValue }).first
                {
                    method = allowed
                }
                return .authenticated(method, state.secrets[method]!)
            case .canceled: return .canceled
            case .failed: return .failed
            }
        }
    }
}

/// A clock tests move by hand.
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var time = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// Creates a clock at a fixed date.
    public init() {}

    /// The current time.
    public var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return time
    }

    /// Moves the clock (backwards with a negative value).
    public func advance(_ seconds: TimeInterval) {
        lock.lock()
        time += seconds
        lock.unlock()
    }

    /// A clock function reading this clock.
    public var reading: @Sendable () -> Date { { self.now } }
}
