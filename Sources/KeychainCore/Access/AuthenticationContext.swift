import Foundation
import SecureStorageFoundation

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
///
/// While the window lasts, the context holds in memory the presence key each authentication
/// unwrapped (per keychain), which is what lets later reads open protected items without a
/// prompt; ``invalidate()`` drops it, and so does the end of the window.
public final class AuthenticationContext: Sendable, Hashable, CustomStringConvertible {
    /// The longest reuse window accepted (Apple's `LATouchIDAuthenticationMaximumAllowableReuseDuration`, 5 minutes).
    public static let maximumReuseDuration: TimeInterval = 300

    private struct State {
        var reuseDuration: TimeInterval
        var interactionNotAllowed = false
        var localizedReason = ""
        var isInvalidated = false
        var lastAuthentication: [AuthenticationMethod: Date] = [:]
        /// The presence key each keychain's last authentication with a method unwrapped.
        var presenceKeys: [AuthenticationMethod: [UUID: PresencePrivateKey]] = [:]
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

    /// Why the app asks, shown by the authenticator when a call through this context gives no
    /// reason of its own (`LAContext.localizedReason`).
    public var localizedReason: String {
        get { state.withLock { $0.localizedReason } }
        set { state.withLock { $0.localizedReason = newValue } }
    }

    /// Whether ``invalidate()`` was called.
    public var isInvalidated: Bool { state.withLock { $0.isInvalidated } }

    /// Ends the context: its authentications are forgotten and later uses fail.
    public func invalidate() {
        state.withLock {
            $0.isInvalidated = true
            $0.lastAuthentication = [:]
            $0.presenceKeys = [:]
        }
    }

    /// A still-valid earlier authentication among `methods` for the keychain `vaultID`: the
    /// method and the presence key it unwrapped. With `needingKey`, only one that unwrapped
    /// this keychain's presence key counts. Expired authentications are forgotten, keys included.
    func reusableAuthentication(
        among methods: Set<AuthenticationMethod>, vaultID: UUID,
        needingKey: Bool
    ) -> (method: AuthenticationMethod, presenceKey: PresencePrivateKey?)? {
        let time = now()
        return state.withLock { state in
            for method in methods.sorted(by: { $0.rawValue < $1.rawValue }) {
                guard let last = state.lastAuthentication[method] else { continue }
                guard time >= last && time.timeIntervalSince(last) <= state.reuseDuration else {
                    state.lastAuthentication[method] = nil
                    state.presenceKeys[method] = nil
                    continue
                }
                let key = state.presenceKeys[method]?[vaultID]
                if needingKey && key == nil { continue }
                return (method, key)
            }
            return nil
        }
    }

    /// Records a successful authentication and the presence key it unwrapped, if any.
    func record(_ method: AuthenticationMethod, vaultID: UUID, presenceKey: PresencePrivateKey?) {
        let time = now()
        state.withLock { state in
            guard !state.isInvalidated else { return }
            if state.lastAuthentication[method] != time { state.presenceKeys[method] = [:] }
            state.lastAuthentication[method] = time
            if let presenceKey { state.presenceKeys[method, default: [:]][vaultID] = presenceKey }
        }
    }

    /// Identity: two contexts are equal only when they are the same object.
    public static func == (lhs: AuthenticationContext, rhs: AuthenticationContext) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// `AuthenticationContext(reuse: 10.0 s)`.
    public var description: String {
        "AuthenticationContext(reuse: \(reuseDuration) s\(isInvalidated ? ", invalidated" : ""))"
    }
}
