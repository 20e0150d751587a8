import Crypto
import Foundation
import GRDB
import Logging
import SecureStorageFoundation

/// The files of a device secret rotation (``Keychain/bindToTPM(pcrs:passphrase:)``) and how an
/// interrupted one is finished or rolled back.
///
/// A rotation changes two files that cannot change together — the database and the device key
/// file (with the format anchor beside it) — so it has one commit point, the database
/// transaction, and files that say which side of it a crash happened on:
///
/// 1. The new secret D' is written to `device.key.pending` (created exclusively, 0600, synced).
/// 2. In one database transaction, everything D keyed is rewritten under D' (keybag wraps,
///    header MAC, row seals, state record); before it commits, the anchor under D' is written to
///    `keychain-<vault id>.anchor.pending` the same way. **The commit is the rotation's commit.**
/// 3. The pending anchor is renamed over the anchor, then the pending key over `device.key`.
///
/// Every step runs under the keychain directory's lock, which opening takes too; an opener that
/// finds `device.key.pending` (``settleInterrupted(location:database:options:isNew:)``) decides by
/// the header MAC alone: if it holds under D' the transaction committed, and the renames are
/// finished; otherwise it did not, and the pending files are removed. A process killed at any
/// point therefore leaves a keychain that opens with the old binding or the new one, never
/// neither; and since D' keys everything the committed database holds, the old device key file
/// never opens the rotated database (it opens only copies of the database made before).
struct DeviceSecretRotationFiles {
    let location: KeychainLocation

    /// `device.key.pending`: the new secret, until the rotation is finished or rolled back.
    var pendingKeyURL: URL { location.deviceKeyURL.appendingPathExtension("pending") }

    /// `keychain-<vault id>.anchor.pending`: the anchor under the new secret.
    func pendingAnchorURL(vaultID: UUID) -> URL {
        FormatAnchor.url(for: location, vaultID: vaultID).appendingPathExtension("pending")
    }

    private var stateDirectory: String { location.deviceKeyURL.deletingLastPathComponent().path }
    private static let pendingSuffix = ".pending"

    /// Whether a rotation left its pending key (it was interrupted, or is running under the lock).
    var hasPendingKey: Bool { PlatformIO.fileExists(pendingKeyURL.path) }

    /// Finishes a rotation whose database transaction committed: the pending anchor, then the
    /// pending key, each renamed into place with the directory synced. Repeating it after a
    /// crash does what was left.
    func finish(vaultID: UUID) throws(KeychainError) {
        let anchor = pendingAnchorURL(vaultID: vaultID)
        if PlatformIO.fileExists(anchor.path) {
            try Self.move(anchor, over: FormatAnchor.url(for: location, vaultID: vaultID))
        }
        try Self.move(pendingKeyURL, over: location.deviceKeyURL)
    }

    /// Rolls back a rotation whose database transaction did not commit: the pending anchors
    /// first, the pending key last (a pending anchor without a pending key is always a leftover).
    func rollBack() {
        removePendingAnchors()
        PlatformIO.removeFile(pendingKeyURL.path)
        PlatformIO.syncDirectory(of: location.deviceKeyURL.path)
    }

    /// Removes every pending anchor in the state directory, and temporary files of pending
    /// files whose writer was killed.
    func removeAbandonedFiles() {
        PlatformIO.removeAbandonedTemporaryFiles(in: stateDirectory) {
            $0.hasSuffix(Self.pendingSuffix)
                && ($0.hasPrefix("keychain-") || $0 == Substring(pendingKeyURL.lastPathComponent))
        }
    }

    /// The anchors of other keychains in the state directory: keychains that use the same
    /// device key file, which a rotation would leave without their secret.
    func anchorsOfOtherKeychains(than vaultID: UUID) -> [String] {
        let own = FormatAnchor.url(for: location, vaultID: vaultID).lastPathComponent
        return ((try? FileManager.default.contentsOfDirectory(atPath: stateDirectory)) ?? [])
            .filter { $0.hasPrefix("keychain-") && $0.hasSuffix(".anchor") && $0 != own }.sorted()
    }

    /// Whether a pending anchor of another keychain than `vaultID` is here while none of its own
    /// is: the pending key is then that keychain's rotation, not this one's.
    func pendingRotationBelongsToAnotherKeychain(than vaultID: UUID) -> Bool {
        let own = pendingAnchorURL(vaultID: vaultID).lastPathComponent
        let pending = ((try? FileManager.default.contentsOfDirectory(atPath: stateDirectory)) ?? [])
            .filter { $0.hasPrefix("keychain-") && $0.hasSuffix(".anchor" + Self.pendingSuffix) }
        return !pending.isEmpty && !pending.contains(own)
    }

    private func removePendingAnchors() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: stateDirectory)) ?? []
        where name.hasPrefix("keychain-") && name.hasSuffix(".anchor" + Self.pendingSuffix) {
            PlatformIO.removeFile(stateDirectory + "/" + name)
        }
    }

    /// Finishes or rolls back a rotation a killed process left (run under the directory lock,
    /// before the device key is loaded). The pending secret decides: when the stored header MAC
    /// holds under it the rotation committed and is finished; otherwise it is rolled back. When
    /// the pending secret cannot be loaded (its TPM refuses it now), the rotation is rolled back
    /// only if the header MAC holds under the current secret.
    ///
    /// - Throws: `.keychainUnavailable` when neither secret can be shown to be the keychain's:
    ///   nothing is removed then.
    static func settleInterrupted(
        location: KeychainLocation, database: DatabasePool, options: KeychainOptions, isNew: Bool
    ) throws(KeychainError) {
        let files = DeviceSecretRotationFiles(location: location)
        files.removeAbandonedFiles()
        guard files.hasPendingKey else {
            files.removePendingAnchors()
            return
        }
        let logger = LibraryLogging.logger(component: "KeychainCore")
        let path = location.databaseURL.path
        // Another keychain sharing this device key file was rotating it: not this one's to settle
        // (a keychain being created has no rotation of its own).
        if isNew { return }
        if let vaultID = try Keychain.perform(
            path: path, { try database.read { db in try VaultHeader.fetch(db)?.vaultID } }),
            files.pendingRotationBelongsToAnotherKeychain(than: vaultID)
        {
            return
        }
        func holds(under key: SymmetricKey) throws(KeychainError) -> Bool? {
            if isNew { return nil }
            return try Keychain.perform(path: path) {
                try database.read { db in try HeaderAuthenticator.storedCodeHolds(db, deviceKey: key) }
            }
        }
        let pending: SymmetricKey
        do {
            pending = try DeviceKeyFile.load(at: files.pendingKeyURL, mayCreate: false, options: options).0
        } catch {
            // The new secret cannot be loaded (its TPM refuses it now): roll back only when the
            // header shows the transaction did not commit.
            if let current = try? DeviceKeyFile.load(at: location.deviceKeyURL, mayCreate: false, options: options).0,
                try holds(under: current) != false
            {
                files.rollBack()
                logger.notice(
                    "rolled back a rotation of the device secret that a killed process had not committed",
                    metadata: ["path": "\(path)"])
                return
            }
            throw KeychainError.interruptedRotation(pendingKeyFile: files.pendingKeyURL.path, reason: error.message)
        }
        if try holds(under: pending) == true {
            // D' verifies the header: the transaction committed.
            let vaultID = try Keychain.perform(path: path) {
                try database.read { db in try VaultHeader.fetch(db)?.vaultID }
            }
            try files.finish(vaultID: vaultID ?? UUID())
            logger.notice(
                "finished a rotation of the device secret that a killed process had committed",
                metadata: ["path": "\(path)"])
        } else {
            files.rollBack()
            logger.notice(
                "rolled back a rotation of the device secret that a killed process had not committed",
                metadata: ["path": "\(path)"])
        }
    }

    /// Renames `source` over `destination` and syncs the directory.
    private static func move(_ source: URL, over destination: URL) throws(KeychainError) {
        guard rename(source.path, destination.path) == 0 else {
            throw PlatformIO.posixError("Cannot move \(source.path) to \(destination.path)")
        }
        PlatformIO.syncDirectory(of: destination.path)
    }
}
