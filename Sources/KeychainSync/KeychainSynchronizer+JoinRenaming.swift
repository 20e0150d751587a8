import Foundation

/// A join asked for earlier and not approved yet: its name, and filing it again under another.
extension KeychainSynchronizer {
    /// The name this device's open join request is filed under; `nil` when no join is waiting
    /// (the keychain belongs to no circle, or is a member already). Reads only the keychain.
    ///
    /// A tool that runs ``requestToJoin(server:circleCode:deviceName:)`` again without being
    /// given a name passes this one, so that the request and its approval code stay as they are.
    /// - Throws: ``SyncError/Code/keychain`` when the sync state cannot be read.
    public func pendingJoinName() throws(SyncError) -> String? {
        guard let state = try SyncStateStore.load(from: keychain), !state.isMember else { return nil }
        return state.deviceName
    }

    /// Files this device's open join request again under `deviceName`, and returns its new
    /// approval code (the one shown before no longer opens anything).
    ///
    /// The name is sealed under the approval code, so the request cannot be changed in place: the
    /// old one is withdrawn from the server (only while unanswered, in one statement; a member
    /// approving it at that moment finds it gone, and its admission is rolled back) and a new one
    /// is filed with a new device id, new keys and a new approval code, for the same circle and
    /// circle code. Asking again with the same name returns the same approval code.
    ///
    /// - Parameter deviceName: how the other members see this device.
    /// - Returns: the approval code to type on a member (`keychain sync approve`).
    /// - Throws: ``SyncError/Code/invalidState`` when a member already approved the request (then
    ///   finish joining with ``finishJoining(timeout:)``: the name can no longer change);
    ///   ``SyncError/Code/notAMember`` when no join is waiting.
    public func renameJoinRequest(to deviceName: String) throws(SyncError) -> String {
        try serialised { () throws(SyncError) in
            guard let existing = try SyncStateStore.load(from: keychain), !existing.isMember else {
                throw SyncError.noJoinToRename
            }
            guard existing.deviceName != deviceName else { return existing.approvalCode }
            return try fileJoinRequestAgain(existing, renamedTo: deviceName)
        }
    }

    /// Withdraws `existing`'s request and files a new one under `deviceName` (``renameJoinRequest(to:)``);
    /// run inside ``serialised(_:)``.
    func fileJoinRequestAgain(_ existing: SyncState, renamedTo deviceName: String) throws(SyncError) -> String {
        let old = try SyncServer.connect(existing.server, circleID: existing.circleID)
        if try !old.withdrawRequest(existing.deviceID), try old.answer(to: existing.deviceID) != nil {
            throw SyncError.joinAlreadyApproved
        }
        // Unanswered and now withdrawn, or never filed: a new request in its place.
        return try fileJoinRequest(
            server: existing.server, circleID: existing.circleID, pin: existing.circleCodePin, deviceName: deviceName)
    }
}
