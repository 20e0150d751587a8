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
    /// The session is a ticket in ``KeychainLocation/runtimeDirectoryURL`` (memory-backed:
    /// `$XDG_RUNTIME_DIR` or `/dev/shm`, never the disk): the user-tier key sealed under a key
    /// derived from the device key and this boot's id, so the ticket alone opens nothing, a
    /// reboot voids it, and a passphrase change ends it. Anyone who can read both the device
    /// key and the ticket — the same user, or root — can read the keychain until the session
    /// ends, exactly as they could while it is unlocked in memory.
    ///
    /// ```swift
    /// try keychain.unlock(passphrase: passphrase, keepingSessionFor: .seconds(900))
    /// // another process, within 15 minutes:
    /// let keychain = try Keychain()          // opens unlocked (KeychainOptions.resumesUnlockSession)
    /// ```
    ///
    /// - Throws: `.authFailed` for a wrong passphrase, `.invalidState` without a passphrase,
    ///   `.invalidParameter` for a duration that is not positive, `.keychainUnavailable` when
    ///   there is no memory-backed runtime directory or the ticket cannot be written.
    public func unlock(passphrase: String, keepingSessionFor duration: Duration?) throws(KeychainError) {
        if let duration, duration <= .zero {
            throw KeychainError(.invalidParameter, "An unlock session must last a positive time; pass nil for one that lasts until lock or logout.")
        }
        guard let directory = location.runtimeDirectoryURL else {
            throw KeychainError(.keychainUnavailable, "Unlock sessions need a memory-backed runtime directory ($XDG_RUNTIME_DIR or /dev/shm) and there is none, so none is written to disk. Set XDG_RUNTIME_DIR, or unlock in each process instead.")
        }
        let keybag = try read { db in try KeyStore.fetchKeybag(db) }
        let kek = try keys.unlock(passphrase: passphrase, keybag: keybag)
        let expiry = duration.map { Date().addingTimeInterval(TimeInterval($0.components.seconds) + TimeInterval($0.components.attoseconds) / 1e18) }
        let ticket = UnlockTicket(vaultID: vaultID, keybagGeneration: keys.header.keybagGeneration, expiry: expiry, userKEK: kek)
        let sealed: Data
        do { sealed = try ticket.sealed(deviceKey: keys.deviceKey) } catch {
            throw KeychainError(.outOfMemory, "Sealing the unlock session failed: \(error).")
        }
        try PlatformIO.makePrivateDirectory(directory)
        try FilePermissions.requirePrivate(directory.path, role: "runtime directory")
        let writer = try PrivateFileWriter(path: directory.appendingPathComponent("\(vaultID.uuidString).unlock").path)
        try writer.write(sealed)
        try writer.commit(replacingExisting: true)
        logger.info("keychain unlocked with a session", metadata: ["expires": "\(expiry.map { "\($0)" } ?? "at lock or logout")"])
    }

    /// The current unlock session, if a valid one exists (expired or foreign tickets are removed).
    public var unlockSession: UnlockSession? {
        validTicket().map { UnlockSession(expiry: $0.expiry) }
    }

    /// Unlocks this instance from a valid unlock session; returns whether it did.
    /// ``Keychain/init(location:options:)`` calls it when ``KeychainOptions/resumesUnlockSession`` is set.
    @discardableResult
    public func resumeUnlockSession() -> Bool {
        guard hasPassphrase, let ticket = validTicket(),
              let keybag = try? read({ db in try KeyStore.fetchKeybag(db) }),
              (try? keys.unlock(userKEK: ticket.userKEK, keybag: keybag)) != nil else { return false }
        logger.debug("resumed an unlock session")
        return true
    }

    /// Removes the unlock session's ticket, if any.
    func endUnlockSession() {
        if let path = unlockTicketURL?.path { PlatformIO.removeFile(path) }
    }

    var unlockTicketURL: URL? {
        location.runtimeDirectoryURL?.appendingPathComponent("\(vaultID.uuidString).unlock")
    }

    /// The ticket of this keychain when it exists, is ours, fits the current keybag and has not
    /// expired. A ticket that is expired, from an older passphrase, or does not open (another
    /// boot, device key or vault) is removed; one that cannot be read right now is left alone.
    private func validTicket() -> UnlockTicket? {
        guard let path = unlockTicketURL?.path, PlatformIO.fileExists(path),
              (try? FilePermissions.requirePrivate(path, role: "unlock session")) != nil,
              let bytes = try? PlatformIO.readFile(path) else { return nil }
        _ = try? read { _ in }      // brings the header up to date with other processes' changes
        guard let ticket = UnlockTicket.open(bytes, deviceKey: keys.deviceKey, vaultID: vaultID),
              ticket.keybagGeneration >= keys.header.keybagGeneration else {
            PlatformIO.removeFile(path)
            return nil
        }
        guard ticket.keybagGeneration == keys.header.keybagGeneration else { return nil }   // newer than we know: not ours to judge
        if let expiry = ticket.expiry, expiry <= Date() {
            PlatformIO.removeFile(path)
            return nil
        }
        return ticket
    }
}
