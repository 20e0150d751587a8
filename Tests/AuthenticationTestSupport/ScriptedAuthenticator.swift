import Foundation
import KeychainCore

/// A test double for ``Authenticator``: answers from a script, counts every prompt and records
/// what each asked for. Its enrolled biometry can be changed like a user re-enrolling a finger.
public final class ScriptedAuthenticator: Authenticator, @unchecked Sendable {
    private struct State {
        var answers: [AuthenticationOutcome] = []
        var fallback: AuthenticationOutcome = .authenticated(.biometry)
        var requests: [AuthenticationRequest] = []
        var methods: Set<AuthenticationMethod> = [.biometry, .passcode]
        var enrollment: Data? = Data("finger-1".utf8)
    }
    private let lock = NSLock()
    private var state = State()

    /// Creates an authenticator offering biometry and passcode, enrolled as "finger-1", that
    /// authenticates every prompt.
    public init() {}

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// Answers the next prompts in order; after them every prompt gets `fallback`.
    public func script(_ answers: [AuthenticationOutcome], fallback: AuthenticationOutcome? = nil) {
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

    public func authenticate(_ request: AuthenticationRequest) -> AuthenticationOutcome {
        withState { state in
            state.requests.append(request)
            let answer = state.answers.isEmpty ? state.fallback : state.answers.removeFirst()
            // The double authenticates with a method the request allows, as a real one would.
            if case .authenticated(let method) = answer, !request.allowedMethods.contains(method),
               let allowed = request.allowedMethods.sorted(by: { $0.rawValue < $1.rawValue }).first {
                return .authenticated(allowed)
            }
            return answer
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
