import Foundation
@testable import KeychainCore

/// A test double for ``Authenticator``: answers from a script, counts every prompt and records
/// what each asked for. Its enrolled biometry can be changed like a user re-enrolling a finger.
final class ScriptedAuthenticator: Authenticator, @unchecked Sendable {
    private struct State {
        var answers: [AuthenticationOutcome] = []
        var fallback: AuthenticationOutcome = .authenticated(.biometry)
        var requests: [AuthenticationRequest] = []
        var methods: Set<AuthenticationMethod> = [.biometry, .passcode]
        var enrollment: Data? = Data("finger-1".utf8)
    }
    private let state = Locked(State())

    /// Answers the next prompts in order; after them every prompt gets `fallback`.
    func script(_ answers: [AuthenticationOutcome], fallback: AuthenticationOutcome? = nil) {
        state.withLock {
            $0.answers = answers
            if let fallback { $0.fallback = fallback }
        }
    }

    /// Changes the enrolled biometry.
    func enroll(_ name: String?) { state.withLock { $0.enrollment = name.map { Data($0.utf8) } } }

    /// Sets the methods offered.
    func offer(_ methods: Set<AuthenticationMethod>) { state.withLock { $0.methods = methods } }

    var prompts: Int { state.withLock { $0.requests.count } }
    var requests: [AuthenticationRequest] { state.withLock { $0.requests } }

    var availableMethods: Set<AuthenticationMethod> { state.withLock { $0.methods } }
    var enrollmentState: Data? { state.withLock { $0.enrollment } }

    func authenticate(_ request: AuthenticationRequest) -> AuthenticationOutcome {
        state.withLock { state in
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
final class ManualClock: @unchecked Sendable {
    private let time = Locked(Date(timeIntervalSinceReferenceDate: 800_000_000))
    var now: Date { time.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    var reading: @Sendable () -> Date { { self.now } }
}
