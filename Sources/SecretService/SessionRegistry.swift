import SecureStorageFoundation

/// The open sessions, each owned by the unique bus name that opened it. Another caller naming a
/// session gets ``SecretServiceError/noSession(_:)``, as if it did not exist.
final class SessionRegistry: Sendable {
    /// The most sessions one client may hold.
    static let sessionsPerClient = 32

    fileprivate struct Session {
        var owner: String
        var cipher: SessionCipher
    }

    fileprivate struct State {
        var sessions: [String: Session] = [:]
        var next = 0
    }

    fileprivate let state = Locked(State())

    /// Opens a session for `owner`; returns its path.
    func open(owner: String, cipher: SessionCipher) throws(SecretServiceError) -> String {
        try state.withLock { state throws(SecretServiceError) -> String in
            guard state.sessions.values.count(where: { $0.owner == owner }) < Self.sessionsPerClient else {
                throw .tooMany("sessions", limit: Self.sessionsPerClient)
            }
            state.next += 1
            let path = SecretServiceNames.sessionPrefix + "s\(state.next)"
            state.sessions[path] = Session(owner: owner, cipher: cipher)
            return path
        }
    }

    /// The cipher of `path` if `caller` owns it.
    func cipher(_ path: String, caller: String) throws(SecretServiceError) -> SessionCipher {
        guard let session = state.withLock({ $0.sessions[path] }), session.owner == caller else {
            throw .noSession(path)
        }
        return session.cipher
    }

    /// Whether `path` is an open session of `caller`.
    func exists(_ path: String, caller: String) -> Bool { state.withLock { $0.sessions[path]?.owner == caller } }

    /// Closes `path` if `caller` owns it.
    func close(_ path: String, caller: String) throws(SecretServiceError) {
        try state.withLock { state throws(SecretServiceError) in
            guard state.sessions[path]?.owner == caller else { throw .noSession(path) }
            state.sessions[path] = nil
        }
    }

    /// Closes every session of a client that left the bus.
    func closeAll(of owner: String) { state.withLock { $0.sessions = $0.sessions.filter { $0.value.owner != owner } } }

    /// How many sessions are open (for tests).
    var count: Int { state.withLock { $0.sessions.count } }
}

extension SessionRegistry {
    /// The paths of `owner`'s sessions.
    func paths(of owner: String) -> [String] {
        state.withLock { $0.sessions.filter { $0.value.owner == owner }.keys.sorted() }
    }
}
