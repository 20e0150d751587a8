import Crypto
import Foundation

/// An unlock remembered for later processes of the same user: see
/// ``Keychain/unlock(passphrase:keepingSessionFor:)``.
public struct UnlockSession: Sendable, Hashable {
    /// When the session ends by itself; `nil` when it lasts until ``Keychain/lock()`` or logout.
    public let expiry: Date?
}

extension Keychain {
    /// Unlocks the keychain and remembers the unlock for later processes of this user until
    /// `duration` has passed (`nil`: until ``lock()`` or logout), like `security unlock-keychain`.
    ///
    /// A session has two halves. The ticket holds a random session key sealed under a key
    /// derived from the device key and this boot's id: alone it opens nothing, and a reboot
    /// voids it. It is kept where no disk and no other user can reach it: in
    /// ``KeychainLocation/runtimeDirectoryURL`` (`$XDG_RUNTIME_DIR` or `/run/user/<uid>`, the
    /// user's own memory-backed directory) when there is one, else in the kernel's keyring (the
    /// user's persistent keyring, made for processes without a login session such as cron jobs,
    /// containers and root shells; the user keyring where the kernel has none), as a key only
    /// this user can read, which the kernel drops at the session's expiry; a session without an
    /// expiry gets a kernel timeout of a day there, started again each time it is resumed
    /// (``resumeUnlockSession()``), so the ticket of a keychain no longer used leaves the
    /// keyring by itself instead of filling the user's key quota. The keychain header
    /// holds the session record: the passphrase-derived key sealed under the session key.
    /// ``lock()`` — from any process and any environment of the user — removes the record, and a
    /// passphrase change replaces the keys, so every copy of the ticket stops working at once.
    /// A new session replaces the previous one; when the new one cannot be kept (a full keyring
    /// quota, say), the previous one goes on working: the new ticket is written first where
    /// nothing reads it, and the header's record is put back if the ticket cannot be put in place.
    ///
    /// Anyone who can read the device key, the ticket and the keychain file while the session
    /// lasts — the same user, or root — can read the keychain, exactly as they could while it is
    /// unlocked in memory. Other users can neither read a keyring ticket nor put one in your
    /// keyrings.
    ///
    /// ```swift
    /// try keychain.unlock(passphrase: passphrase, keepingSessionFor: .seconds(900))
    /// // another process, within 15 minutes:
    /// let keychain = try Keychain()          // opens unlocked (KeychainOptions.resumesUnlockSession)
    /// ```
    ///
    /// - Throws: `.authFailed` for a wrong passphrase (checked first, before the ticket's place),
    ///   `.invalidState` without a passphrase, `.invalidParameter` for a duration that is not
    ///   positive, `.keychainUnavailable` when the runtime directory is unsafe, or there is none
    ///   and the kernel keyring refuses (as in a container whose seccomp profile blocks keyctl),
    ///   or the ticket cannot be written. The instance stays as it was when it throws.
    public func unlock(passphrase: String, keepingSessionFor duration: Duration?) throws(KeychainError) {
        try requireWritable()
        if let duration, duration <= .zero {
            throw KeychainError.unlockSessionDurationNotPositive()
        }
        let store = UnlockTicketStore(location, vaultID: vaultID)
        if case .agent(let agent) = store {
            try unlockThroughAgent(agent, passphrase: passphrase, duration: duration)
            return
        }
        let keybag = try read { db in try KeyRing.fetchKeybag(db) }
        let generation = keys.header.keybagGeneration
        // a wrong passphrase is told as such first
        let kek = try keys.verifiedKEK(passphrase: passphrase, keybag: keybag)
        try store.prepare()
        let expiry = duration.map {
            Date().addingTimeInterval(
                TimeInterval($0.components.seconds) + TimeInterval($0.components.attoseconds) / 1e18)
        }
        let ticket = UnlockTicket(vaultID: vaultID, expiry: expiry)
        let sealed: Data
        let record: UnlockSessionRecord
        do {
            sealed = try ticket.sealed(deviceKey: keys.deviceKey)
            record = try ticket.record(sealing: kek, keybagGeneration: generation)
        } catch {
            throw KeychainError.sealingUnlockSessionFailed(error: error)
        }
        // The new ticket is written where nothing reads it yet, then the record replaced, then the
        // ticket put in place: whichever step fails, a session that worked before still works.
        let staged = try store.stage(sealed, vaultID: vaultID, expiry: expiry)
        let previous: UnlockSessionRecord?
        do {
            previous = try storeSessionRecord(record)
        } catch {
            staged.discard()
            throw error
        }
        do {
            try staged.commit()
        } catch {
            staged.discard()
            _ = try? storeSessionRecord(previous)  // the earlier ticket, still in place, opens it again
            throw error
        }
        try keys.unlock(userKEK: kek, keybag: keybag)
        logger.info(
            "keychain unlocked with a session",
            metadata: ["expires": "\(expiry.map { "\($0)" } ?? "at lock or logout")", "ticket": "\(store.kind)"])
    }

    /// Has the keychain's agent unlock and keep the session (it holds the ticket), then resumes
    /// that session here: the passphrase goes to the verified agent only, and this instance ends
    /// up unlocked exactly as from a ticket of its own.
    private func unlockThroughAgent(_ agent: KeychainAgentClient, passphrase: String, duration: Duration?)
        throws(KeychainError)
    {
        try agent.unlock(passphrase: passphrase, duration: duration)
        guard let session = currentSession(from: .agent(agent)) else {
            throw KeychainError.agentSessionNotResumed(pid: agent.status.pid)
        }
        try keys.unlock(userKEK: session.userKEK, keybag: session.keybag)
        logger.info("keychain unlocked by its agent", metadata: ["agent": "\(agent.status.pid)"])
    }

    /// The current unlock session, if this environment has a valid ticket for it.
    public var unlockSession: UnlockSession? {
        currentSession().map { UnlockSession(expiry: $0.ticket.expiry) }
    }

    /// Unlocks this instance from a valid unlock session; returns whether it did.
    /// ``Keychain/init(location:options:)`` calls it when ``KeychainOptions/resumesUnlockSession`` is set.
    @discardableResult
    public func resumeUnlockSession() -> Bool {
        guard hasPassphrase else { return false }
        let store = UnlockTicketStore(location, vaultID: vaultID)
        guard let session = currentSession(from: store),
            (try? keys.unlock(userKEK: session.userKEK, keybag: session.keybag)) != nil
        else { return false }
        // A keyring ticket without an expiry lives while it is used: its idle timeout starts again.
        store.refresh(vaultID: vaultID, holding: session.bytes, expiry: session.ticket.expiry)
        logger.debug("resumed an unlock session")
        return true
    }

    /// Ends the unlock session everywhere: removes the session record from the header (every
    /// copy of the ticket is void from then on) and this environment's ticket. With an agent,
    /// the agent locks (and ends the session) first; its failure is thrown.
    func endUnlockSession() throws(KeychainError) {
        try UnlockTicketStore(location, vaultID: vaultID).remove(vaultID: vaultID)
        if try read({ db in try VaultHeader.fetch(db)?.session }) != nil { try storeSessionRecord(nil) }
    }

    /// Removes this environment's ticket (file or keyring key), if any; with an agent, asks it to
    /// lock (the keys changed, so its session is void anyway), logging when it cannot.
    func removeUnlockTicket() {
        do { try UnlockTicketStore(location, vaultID: vaultID).remove(vaultID: vaultID) } catch {
            logger.warning("the keychain agent could not be locked", metadata: ["reason": "\(error.message)"])
        }
    }

    /// The ticket file's path when this environment keeps tickets in a runtime directory;
    /// `nil` when they are kept in the kernel keyring (or by an agent).
    var unlockTicketURL: URL? {
        UnlockTicketStore(location).fileURL(vaultID: vaultID)
    }

    /// Checks the directory that holds `directory` (`$XDG_RUNTIME_DIR`): it must be the user's own,
    /// private, and memory-backed (tmpfs or ramfs), so that a ticket never lands on a disk or in
    /// a place another user controls. Only then is anything written or read there.
    static func requireSessionDirectory(_ directory: URL) throws(KeychainError) {
        let base = directory.deletingLastPathComponent().path
        guard let info = PlatformIO.ownerAndMode(of: base), !info.isSymlink else {
            throw KeychainError.runtimeDirectoryMissing(base: base)
        }
        guard info.owner == PlatformIO.currentUserID, info.mode & 0o077 == 0 else {
            throw KeychainError.runtimeDirectoryNotPrivate(base: base, owner: info.owner, mode: info.mode)
        }
        guard FileSystemKind.isMemoryBacked(base) else {
            throw KeychainError.runtimeDirectoryNotInMemory(base: base)
        }
    }

    /// Writes (or, with `nil`, removes) the session record, with a new header MAC; returns the
    /// record it replaced.
    @discardableResult
    private func storeSessionRecord(_ record: UnlockSessionRecord?) throws(KeychainError) -> UnlockSessionRecord? {
        let previous = try write { db in
            var (header, keybag) = try HeaderAuthenticator.fetchVerified(
                db, deviceKey: self.keys.deviceKey, location: self.location)
            let previous = header.session
            header.session = record
            try header.updateKeybagState(db)
            try HeaderAuthenticator.storeChange(
                header, keybag: keybag, location: self.location, deviceKey: self.keys.deviceKey, db)
            return previous
        }
        keys.adopt(session: record)
        settleAnchor()
        return previous
    }

    /// This environment's ticket (file or keyring key) with the KEK it opens from the header's
    /// session record, when both are valid. A ticket that is expired, does not open (another
    /// boot, device key or vault: a key planted in the keyring, say) or whose session was ended
    /// (locked, replaced, passphrase changed) is removed; one that cannot be read right now is
    /// left alone.
    func currentSession() -> (
        ticket: UnlockTicket, userKEK: SymmetricKey, keybag: [KeybagSlot: Data], record: UnlockSessionRecord,
        bytes: Data
    )? {
        currentSession(from: UnlockTicketStore(location, vaultID: vaultID))
    }

    /// ``currentSession()`` from the ticket `store` holds.
    func currentSession(from store: UnlockTicketStore) -> (
        ticket: UnlockTicket, userKEK: SymmetricKey, keybag: [KeybagSlot: Data], record: UnlockSessionRecord,
        bytes: Data
    )? {
        guard let bytes = store.read(vaultID: vaultID),
            let (header, keybag) = try? read({ db in
                try HeaderAuthenticator.fetchVerified(db, deviceKey: self.keys.deviceKey, location: self.location)
            })
        else { return nil }
        guard let ticket = UnlockTicket.open(bytes, deviceKey: keys.deviceKey, vaultID: vaultID),
            ticket.expiry.map({ $0 > Date() }) ?? true,
            let record = header.session,
            let kek = ticket.userKEK(from: record, keybagGeneration: header.keybagGeneration)
        else {
            store.remove(vaultID: vaultID, ifItHolds: bytes)  // only the ticket that was judged
            return nil
        }
        return (ticket, kek, keybag, record, bytes)
    }
}
