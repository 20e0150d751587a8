import KeychainCore

/// Every message KeychainSync throws, in one place: one factory per failure, named for it.
/// A factory takes only what its message shows — counts, lengths, key generations, and texts
/// already made safe to print (libpq's reason with the password removed) — never item data,
/// keys or codes.
extension SyncError {
    // MARK: - The sync server

    /// libpq could not be loaded; `loadError` says why (a library path, never the connection string).
    static func serverLibraryUnavailable(_ loadError: String) -> SyncError {
        SyncError(.serverUnreachable, "Cannot connect to the sync server: \(loadError).")
    }

    /// libpq could not allocate a connection.
    static var connectionOutOfMemory: SyncError {
        SyncError(.serverUnreachable, "Cannot connect to the sync server: out of memory.")
    }

    /// The server could not be reached; `reason` is libpq's, without the connection string's secrets.
    static func connectionFailed(reason: String) -> SyncError {
        SyncError(.serverUnreachable, "Cannot connect to the sync server: \(reason)")
    }

    /// The connection broke; `reason` is libpq's message, made printable.
    static func connectionLost(reason: String) -> SyncError {
        SyncError(.serverUnreachable, "The sync server connection was lost: \(reason)")
    }

    /// The server did not answer a statement within `seconds` seconds; the connection was closed.
    static func statementTimedOut(seconds: Int) -> SyncError {
        SyncError(
            .serverUnreachable,
            "The sync server did not answer within \(seconds) s; the connection was closed."
        )
    }

    /// The server refused a statement with SQLSTATE `sqlState`; `reason` is its message, made printable.
    static func statementRefused(sqlState: String, reason: String) -> SyncError {
        SyncError(
            .serverRejected, "The sync server refused a statement (SQLSTATE \(sqlState)): \(reason)", sqlState: sqlState
        )
    }

    // MARK: - The sync lock of this keychain

    /// Another process of this user held the sync lock at `path` for longer than `seconds`.
    static func syncLockTimedOut(path: String, seconds: Int) -> SyncError {
        SyncError(
            .invalidState,
            "Another process has been syncing this keychain for over \(seconds) s (it holds \(path)); nothing was changed. Find it with `fuser -v \(path)`."
        )
    }

    /// The sync lock file at `path` is a link, another user's, or open to others.
    static func syncLockFileNotPrivate(path: String) -> SyncError {
        SyncError(
            .invalidState,
            "The sync lock file \(path) is not a regular file of this user that only this user can open; remove it. Nothing was changed."
        )
    }

    /// The sync lock file at `path` could not be created; `reason` is the system's text for the error.
    static func syncLockFileNotCreated(path: String, reason: String) -> SyncError {
        SyncError(.invalidState, "The sync lock file \(path) cannot be created (\(reason)); nothing was changed.")
    }

    /// The sync lock file at `path` could not be opened; `reason` is the system's text for the error.
    static func syncLockFileNotOpened(path: String, reason: String) -> SyncError {
        SyncError(.invalidState, "The sync lock file \(path) cannot be opened (\(reason)); nothing was changed.")
    }

    // MARK: - Racing other devices

    /// Every one of `attempts` pushes lost the race to another device's.
    static func pushRaceLost(attempts: Int) -> SyncError {
        SyncError(
            .serverUnreachable,
            "Other devices kept pushing while this one tried to (\(attempts) attempts); nothing was lost. Sync again in a moment."
        )
    }

    /// A record's version on the server moved; `marker` tells the round to read everything again.
    static func staleRecordVersion(marker: String) -> SyncError {
        SyncError(
            .invalidState, "A record's version on the server is not the one this device agreed with.", sqlState: marker)
    }

    /// Another member changed the membership while this device approved a join.
    static var approvalRaced: SyncError {
        SyncError(
            .serverUnreachable,
            "Another member changed the circle's membership at the same moment; nothing changed. Approve again.")
    }

    /// Another member changed the membership while this device left.
    static var leavingRaced: SyncError {
        SyncError(
            .serverUnreachable,
            "Another member changed the circle's membership at the same moment; nothing changed. Leave again.")
    }

    /// Another device pushed or changed the membership during a removal's key rotation.
    static var removalRaced: SyncError {
        SyncError(
            .serverUnreachable,
            "Another device pushed or changed the membership while the circle key was being replaced; nothing changed. Run the removal again."
        )
    }

    // MARK: - Membership

    /// The keychain is in no circle (or its join is not approved yet).
    static var notInACircle: SyncError {
        SyncError(
            .notAMember,
            "This keychain belongs to no sync circle (or its join was not approved yet). Create one with `keychain sync create` or join with `keychain sync join`."
        )
    }

    /// Creating or joining a circle from a keychain that already belongs to one.
    static var alreadyInACircle: SyncError {
        SyncError(
            .invalidState, "This keychain already belongs to a sync circle; leave it first (`keychain sync leave`).")
    }

    /// Renaming a join request when no join is waiting.
    static var noJoinToRename: SyncError {
        SyncError(
            .notAMember,
            "No join is waiting on this keychain, so there is no request to rename. Ask to join with `keychain sync join --circle CODE --name NAME`."
        )
    }

    /// Renaming a join request a member already approved.
    static var joinAlreadyApproved: SyncError {
        SyncError(
            .invalidState,
            "A member already approved this device's join request, under the name it was asked with (`keychain sync status` shows it once joined); the name can no longer change, and nothing was changed. Run `keychain sync join` without --name to finish joining."
        )
    }

    /// The joining device withdrew the request being approved.
    static var joinRequestWithdrawn: SyncError {
        SyncError(
            .invalidCode,
            "The new device withdrew that join request while it was being approved (it asked again, under another name); nothing changed. Type the approval code it shows now."
        )
    }

    /// No open join request has the approval code typed.
    static var noJoinRequestForApprovalCode: SyncError {
        SyncError(
            .invalidCode,
            "No open join request has that approval code. Check the code shown by `keychain sync join` on the new device."
        )
    }

    /// Approving from a device that is no longer a member.
    static var noLongerAMemberToApprove: SyncError {
        SyncError(
            .removed,
            "This device is no longer a member of the circle (see `keychain sync status` on another member); it cannot approve."
        )
    }

    /// Removing others from a device that is no longer a member.
    static var noLongerAMemberToRemove: SyncError {
        SyncError(
            .removed,
            "This device is no longer a member of the circle (see `keychain sync status` on another member); it cannot remove others."
        )
    }

    /// The circle rotated its key between this device's approval and its join.
    static var removedBeforeJoining: SyncError {
        SyncError(
            .removed,
            "The circle moved to a new key since this device was approved, and none was wrapped to it: it was removed meanwhile (or the server withholds the key). Ask a member to check `keychain sync status`."
        )
    }

    /// Leaving a circle that no longer holds this device's key.
    static var departureCannotBeRecorded: SyncError {
        SyncError(
            .removed,
            "This device was removed from the circle, or the server claims so and withholds the key, and its departure cannot be recorded. `keychain sync leave --offline` forgets the circle here; a member should then remove this device."
        )
    }

    /// The status of a circle whose key moved since this device's last sync.
    static var circleKeyChangedSinceLastSync: SyncError {
        SyncError(
            .invalidState,
            "The circle moved to a new key since this device last synced: run `keychain sync now`, then look again.")
    }

    // MARK: - Removing a device

    /// A device asked to remove itself.
    static var cannotRemoveItself: SyncError {
        SyncError(.invalidState, "This device cannot remove itself; use `keychain sync leave`.")
    }

    /// No device of the circle has the id or name given.
    static var noSuchDevice: SyncError {
        SyncError(.invalidState, "No device of the circle has that id or name (see `keychain sync status`).")
    }

    /// Several devices have the name given.
    static var ambiguousDeviceName: SyncError {
        SyncError(
            .invalidState, "Several devices have that name; give the device id instead (see `keychain sync status`).")
    }

    /// A device to keep was not admitted through the one removed.
    static var keptDeviceNotAdmittedThroughRemoved: SyncError {
        SyncError(
            .invalidState,
            "A device to keep was not admitted through the removed one; it stays anyway (see who approved whom in `keychain sync status`)."
        )
    }

    /// A removal from a keychain whose changes wait for a locked class.
    static var lockedForRemoval: SyncError {
        SyncError(
            .invalidState,
            "Unlock the keychain first (`keychain unlock`): changes from the circle wait for it, and the circle key cannot be replaced until this device has them."
        )
    }

    // MARK: - A sync round on a removed device

    /// The manifest is under key generation `generation`, this device holds `held`.
    static func circleKeyNotReceived(generation: UInt32, held: UInt32) -> SyncError {
        SyncError(
            .removed,
            "The circle moved to key generation \(generation) and this device holds \(held); it must receive the new key (run a sync again) or was removed."
        )
    }

    /// The manifest is under a key generation this device does not hold.
    static var manifestKeyNotHeld: SyncError {
        SyncError(
            .removed,
            "The circle's manifest is under a key generation this device does not hold: this device was removed from the circle, or has not yet received the new key. Ask a member to check `keychain sync status`."
        )
    }

    /// The roster no longer lists this device.
    static var droppedFromRoster: SyncError {
        SyncError(
            .removed,
            "The circle's roster no longer lists this device (it left or was removed). Its items stay here; leave the circle (`keychain sync leave`) and join again if it should sync."
        )
    }

    /// This device holds no circle key of generation `generation`.
    static func noCircleKey(generation: UInt32) -> SyncError {
        SyncError(
            .removed, "This device holds no circle key of generation \(generation); leave the circle and join again.")
    }

    /// The circle names a new key that is not wrapped to this device.
    static var newCircleKeyNotWrapped: SyncError {
        SyncError(
            .removed,
            "The circle names a new key that is not wrapped to this device: it was removed, or the server withholds the key. Its items stay here. Check `keychain sync status` on another member before leaving."
        )
    }

    /// The new key's roster no longer lists this device.
    static var removedFromCircle: SyncError {
        SyncError(
            .removed,
            "This device was removed from the sync circle. Its items stay here; leave the circle (`keychain sync leave`) and join again if it should sync."
        )
    }

    // MARK: - Circle and approval codes

    /// What to do after a mistyped circle code.
    private static let copyCircleCodeAgain =
        "Nothing was sent to the server. Copy the circle code again from `keychain sync status` on a device of the circle."

    /// What to do after a mistyped approval code.
    private static let typeApprovalCodeAgain =
        "Nothing was sent to the server and nothing was approved. Type the code again as `keychain sync join` shows it on the new device."

    /// A circle code with characters no code has; `alphabet` says which characters codes use.
    static func circleCodeCharacters(alphabet: String) -> SyncError {
        SyncError(
            .invalidCode,
            "That is not a circle code: it holds characters no code has (\(alphabet)). \(copyCircleCodeAgain)")
    }

    /// A circle code whose check group does not match.
    static var circleCodeTypo: SyncError {
        SyncError(
            .invalidCode,
            "The circle code has a typo: its last group, a check over the rest, does not match (a character mistyped, or two swapped). \(copyCircleCodeAgain)"
        )
    }

    /// A circle code of an earlier version, without a check group; codes now have `length` characters.
    static func circleCodeWithoutCheck(length: Int) -> SyncError {
        SyncError(
            .invalidCode,
            "That circle code was printed by an earlier version of keychain, without the check group that catches typos, and is no longer taken (a typo in it could admit this device to a circle it then refuses). Nothing was sent to the server. Run `keychain sync status` on a device of the circle that runs this version, and join with the circle code it shows (\(length) characters; the same circle)."
        )
    }

    /// A circle code of `count` letters and digits where `length` are needed.
    static func circleCodeLength(_ count: Int, expected length: Int) -> SyncError {
        SyncError(
            .invalidCode,
            "That is not a circle code: it has \(count) letters and digits, and a circle code has \(length) (\(length / 4) groups of four, dashes optional). \(copyCircleCodeAgain)"
        )
    }

    /// A circle code that does not decode to a circle.
    static var circleCodeUndecodable: SyncError {
        SyncError(.invalidCode, "That is not a circle code: it does not decode to a circle. \(copyCircleCodeAgain)")
    }

    /// An approval code with characters no code has; `alphabet` says which characters codes use.
    static func approvalCodeCharacters(alphabet: String) -> SyncError {
        SyncError(
            .invalidCode,
            "That is not an approval code: it holds characters no code has (\(alphabet)). \(typeApprovalCodeAgain)")
    }

    /// An approval code whose check group does not match.
    static var approvalCodeTypo: SyncError {
        SyncError(
            .invalidCode,
            "The approval code has a typo: its last group, a check over the rest, does not match (a character mistyped, or two swapped). \(typeApprovalCodeAgain)"
        )
    }

    /// An approval code of `count` letters and digits where `length` are needed.
    static func approvalCodeLength(_ count: Int, expected length: Int) -> SyncError {
        SyncError(
            .invalidCode,
            "That is not an approval code: it has \(count) letters and digits, and an approval code has \(length) (\(length / 4) groups of four, dashes optional). \(typeApprovalCodeAgain)"
        )
    }

    // MARK: - Sealing and signing

    /// AES-GCM failed sealing a record.
    static var recordSealingFailed: SyncError {
        SyncError(.invalidState, "A record could not be sealed (AES-GCM failed).")
    }

    /// AES-GCM failed sealing the circle's deleted values.
    static var deletedValuesSealingFailed: SyncError {
        SyncError(.invalidState, "The circle's deleted values could not be sealed (AES-GCM failed).")
    }

    /// AES-GCM failed sealing a membership change.
    static var membershipChangeSealingFailed: SyncError {
        SyncError(.invalidState, "A membership change could not be sealed (AES-GCM failed).")
    }

    /// Ed25519 failed signing a membership change.
    static var membershipChangeSigningFailed: SyncError {
        SyncError(.invalidState, "A membership change could not be signed (Ed25519 failed).")
    }

    /// AES-GCM failed sealing a join request.
    static var joinRequestSealingFailed: SyncError {
        SyncError(.invalidState, "The join request could not be sealed (AES-GCM failed).")
    }

    /// A member's public key is invalid, so the circle key cannot be wrapped for it.
    static var circleKeyWrappingFailed: SyncError {
        SyncError(.invalidState, "The circle key could not be wrapped for a member (its public key is invalid).")
    }

    // MARK: - The local keychain

    /// The keychain's own error, wrapped.
    init(_ error: KeychainError) {
        self.init(.keychain, error.message, keychainError: error)
    }

    /// The keychain's sync state is of a newer version or damaged.
    static var unreadableSyncState: SyncError {
        SyncError(
            .invalidState,
            "The keychain's sync state cannot be read (written by a newer version, or damaged). Leave the circle and join again."
        )
    }

    // MARK: - Tampering

    /// A tampering finding: `what` the server returned, in words (never its contents).
    static func tampered(_ what: String) -> SyncError {
        SyncError(
            .tampered,
            "The sync server returned \(what). Nothing from this exchange was applied; the server (or someone with access to its database) may be tampering with the circle. Check `keychain sync status` on another device."
        )
    }
}
