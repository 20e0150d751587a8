import SecureStorageFoundation

/// The open sessions, each owned by the unique bus name that opened it. Another caller naming a
/// session gets ``SecretServiceError/noSession(_:)``, as if it did not exist.
///
/// A client holds at most ``sessionsPerClient``; opening one more closes that client's least
/// recently used session instead of refusing. Real clients open sessions freely and seldom close
/// them — Python `secretstorage` opens one for each item it reads a secret of — and gnome-keyring
/// sets no limit, so a refusal would break a long-running script; eviction keeps memory bounded
/// all the same (a session is a 16-byte key).
final class SessionRegistry: Sendable {
    /// The most sessions one client holds at once.
    static let sessionsPerClient = 256

    fileprivate struct Session {
        var owner: String
        var cipher: SessionCipher
        /// When it was opened or last used, in registry ticks.
        var lastUsed: Int
    }

    fileprivate struct State {
        var sessions: [String: Session] = [:]
        var next = 0
        var tick = 0
    }

    fileprivate let state = Locked(State())

    /// Opens a session for `owner`; returns its path.
    func open(owner: String, cipher: SessionCipher) throws(SecretServiceError) -> String {
        state.withLock { state -> String in
            let owned = state.sessions.filter { $0.value.owner == owner }
            if owned.count >= Self.sessionsPerClient,
                let leastRecent = owned.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
            {
                state.sessions[leastRecent] = nil
            }
            state.next += 1
            state.tick += 1
            let path = SecretServiceNames.sessionPrefix + "s\(state.next)"
            state.sessions[path] = Session(owner: owner, cipher: cipher, lastUsed: state.tick)
            return path
        }
    }

    /// The cipher of `path` if `caller` owns it.
    func cipher(_ path: String, caller: String) throws(SecretServiceError) -> SessionCipher {
        let session = state.withLock { state -> Session? in
            guard var session = state.sessions[path], session.owner == caller else { return nil }
            state.tick += 1
            session.lastUsed = state.tick
            state.sessions[path] = session
            return session
        }
        guard let session else { throw .noSession(path) }
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
