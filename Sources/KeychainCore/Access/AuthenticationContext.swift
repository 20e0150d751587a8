import Foundation

/// An authentication the app can reuse across keychain calls, like `LAContext`: once the user
/// authenticated through it, later reads that the same method satisfies do not prompt again
/// while ``reuseDuration`` lasts.
///
/// ```swift
/// let context = AuthenticationContext(reuseDuration: 30)
/// var query = Query(.genericPassword, [.service: "bank"], limit: .all)
/// query.authentication = AuthenticationOptions(context: context, reason: "Show your accounts")
/// let items = try keychain.find(query, returning: .data)   // one prompt for all of them
/// ```
///
/// ``invalidate()`` ends it: later uses fail with `errSecAuthFailed` (Apple's behaviour for an
/// invalidated `LAContext`). Thread-safe.
public final class AuthenticationContext: Sendable, Hashable, CustomStringConvertible {
    /// The longest reuse window accepted (Apple's `LATouchIDAuthenticationMaximumAllowableReuseDuration`, 5 minutes).
    public static let maximumReuseDuration: TimeInterval = 300

    private struct State {
        var reuseDuration: TimeInterval
        var interactionNotAllowed = false
        var isInvalidated = false
        var lastAuthentication: [AuthenticationMethod: Date] = [:]
    }

    private let state: Locked<State>
    private let now: @Sendable () -> Date

    /// Creates a context whose successful authentications are reused for `reuseDuration`
    /// seconds (0 … ``maximumReuseDuration``).
    public convenience init(reuseDuration: TimeInterval = 10) {
        self.init(reuseDuration: reuseDuration, clock: { Date() })
    }

    /// Creates a context that reads the time from `clock` (tests move it forward).
    public init(reuseDuration: TimeInterval, clock: @escaping @Sendable () -> Date) {
        state = Locked(State(reuseDuration: Self.clamped(reuseDuration)))
        now = clock
    }

    private static func clamped(_ duration: TimeInterval) -> TimeInterval {
        duration.isNaN ? 0 : min(max(duration, 0), maximumReuseDuration)
    }

    /// How long a successful authentication satisfies later requests, in seconds (clamped to
    /// 0 … ``maximumReuseDuration``; `LAContext.touchIDAuthenticationAllowableReuseDuration`).
    public var reuseDuration: TimeInterval {
        get { state.withLock { $0.reuseDuration } }
        set { state.withLock { $0.reuseDuration = Self.clamped(newValue) } }
    }

    /// When true, a request that would prompt fails with `errSecInteractionNotAllowed` instead
    /// (`LAContext.interactionNotAllowed`).
    public var interactionNotAllowed: Bool {
        get { state.withLock { $0.interactionNotAllowed } }
        set { state.withLock { $0.interactionNotAllowed = newValue } }
    }

    /// Whether ``invalidate()`` was called.
    public var isInvalidated: Bool { state.withLock { $0.isInvalidated } }

    /// Ends the context: its authentications are forgotten and later uses fail.
    public func invalidate() {
        state.withLock {
            $0.isInvalidated = true
            $0.lastAuthentication = [:]
        }
    }

    /// The method of a still-valid earlier authentication among `methods`, if any.
    func reusableAuthentication(among methods: Set<AuthenticationMethod>) -> AuthenticationMethod? {
        let time = now()
        return state.withLock { state in
            methods.sorted { $0.rawValue < $1.rawValue }.first { method in
                guard let last = state.lastAuthentication[method] else { return false }
                return time >= last && time.timeIntervalSince(last) <= state.reuseDuration
            }
        }
    }

    /// Records a successful authentication.
    func record(_ method: AuthenticationMethod) {
        let time = now()
        state.withLock { if !$0.isInvalidated { $0.lastAuthentication[method] = time } }
    }

    /// Identity: two contexts are equal only when they are the same object.
    public static func == (lhs: AuthenticationContext, rhs: AuthenticationContext) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// `AuthenticationContext(reuse: 10.0 s)`.
    public var description: String { "AuthenticationContext(reuse: \(reuseDuration) s\(isInvalidated ? ", invalidated" : ""))" }
}
