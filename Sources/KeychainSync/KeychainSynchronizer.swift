import Crypto
import Foundation
import SecureStorageFoundation
import KeychainCore

/// Syncs a keychain's synchronizable items with the other devices of its circle, end-to-end
/// encrypted, through a PostgreSQL server.
///
/// A *device* is one keychain. Devices form a *circle*: one creates it, others join with the
/// approval of a member. Exactly the items Apple's keychain would sync travel: those with
/// `kSecAttrSynchronizable` true whose accessibility is not `…ThisDeviceOnly` (and never a key
/// generated inside the keychain). Everything the server stores is sealed with keys only the
/// members hold; see the Sync article for the model and what a malicious server can still do.
///
/// ```swift
/// // Device A
/// let sync = KeychainSynchronizer(keychain: laptop)
/// let circleCode = try sync.createCircle(server: "host=db.example.com dbname=keychain", deviceName: "laptop")
///
/// // Device B: ask to join, show the approval code…
/// let request = KeychainSynchronizer(keychain: server)
/// let approvalCode = try request.requestToJoin(server: "host=db.example.com dbname=keychain",
///                                              circleCode: circleCode, deviceName: "build-server")
/// // …which A approves
/// try sync.approve(approvalCode)
/// // B finishes joining and both sync
/// try request.finishJoining()
/// try request.syncNow()
/// ```
///
/// Every method connects, does its work and disconnects; instances are cheap, and several
/// processes may sync the same keychain (each round is safe to repeat).
public struct KeychainSynchronizer: Sendable {
    /// The keychain this device syncs.
    public let keychain: Keychain

    /// Rounds in this process are serialised: the state is read, merged and written whole.
    private static let roundLock = Locked<Void>()

    /// The service of the item holding a keychain's sync state (never synced itself), so tools
    /// listing items can set it apart.
    public static let stateService = SyncStateStore.service
    /// The access group of that item.
    public static let stateAccessGroup = SyncStateStore.accessGroup

    /// Whether a libpq connection string must not be passed on a command line, where every local
    /// user sees it: ``commandLineExposure(of:)`` finds a password in it, or libpq cannot read it.
    /// - Parameter connectionString: the string to check.
    public static func holdsPassword(_ connectionString: String) -> Bool {
        commandLineExposure(of: connectionString) != nil
    }

    /// Why `connectionString` must not be passed on a command line; `nil` when libpq reads no
    /// secret from it.
    ///
    /// The string is read by libpq's own parser (`PQconninfoParse`), so every form libpq accepts
    /// counts: `password=x`, `password = x`, a tab before `password`, quoted values
    /// (`password='a b'`), `sslpassword`, and a `postgresql://` URI's `user:password@` or
    /// `?password=` (percent-encoded or not). libpq's keywords are case-sensitive: a string with
    /// `PASSWORD=x` is one libpq cannot read at all, and is reported as
    /// ``ConnectionStringExposure/unreadable(reason:)``.
    ///
    /// This API itself accepts a password in the string (``createCircle(server:deviceName:)``
    /// keeps the string in this device's sync state, inside the keychain): only a command line
    /// shows it to others. Keep it in `~/.pgpass` (or the file `PGPASSFILE` names) or `PGPASSWORD`.
    /// - Parameter connectionString: the string to check.
    public static func commandLineExposure(of connectionString: String) -> ConnectionStringExposure? {
        switch ConnectionStringSecrets.read(connectionString) {
        case .unreadable(let reason): .unreadable(reason: reason)
        case .readable(let secrets): secrets.first.map { .secret(keyword: $0.keyword) }
        }
    }

    /// A synchronizer for `keychain`.
    /// - Parameter keychain: the keychain this device syncs.
    public init(keychain: Keychain) {
        self.keychain = keychain
    }

    // MARK: - Creating and joining

    /// Creates a new circle with this device as its only member and pushes this keychain's
    /// synchronizable items.
    ///
    /// - Parameters:
    ///   - server: a libpq connection string (`host=… dbname=… user=…`); keep the password in
    ///     `~/.pgpass` or `PGPASSWORD`.
    ///   - deviceName: how the other members see this device.
    /// - Returns: the circle code other devices join with (not secret: joining needs approval).
    /// - Throws: ``SyncError/Code/invalidState`` when the keychain already belongs to a circle.
    @discardableResult
    public func createCircle(server: String, deviceName: String) throws(SyncError) -> String {
        try serialised { () throws(SyncError) in
            guard try SyncStateStore.load(from: keychain) == nil else {
                throw SyncError.alreadyInACircle
            }
            let circleID = UUID()
            let key = CircleKey.random(circleID: circleID)
            let agreement = Curve25519.KeyAgreement.PrivateKey()
            let signing = Curve25519.Signing.PrivateKey()
            let deviceID = UUID()
            var roster = Roster(circleID: circleID)
            var founding = roster.nextEvent(.founded, author: deviceID, subject: deviceID)
            (founding.signingKey, founding.agreementKey, founding.name) = (
                signing.publicKey.rawRepresentation, agreement.publicKey.rawRepresentation, deviceName
            )
            try founding.sign(with: signing, circleID: circleID)
            try roster.apply(founding)
            let connection = try SyncServer.connect(server, circleID: circleID)
            try connection.connection.transaction { () throws(SyncError) in
                let manifest = Manifest(
                    counter: 0, generation: 0, digest: SetDigest(), recordCount: 0, author: deviceID)
                try connection.writeManifest(counter: 0, body: manifest.sealed(key: key))
                guard try connection.appendRosterEvent(at: 0, body: founding.sealed(key: key)) else {
                    throw SyncError.tampered("a roster for a circle that was just created")
                }
            }
            var state = SyncState(
                circleID: circleID, deviceID: deviceID, deviceName: deviceName, server: server, agreementKey: agreement,
                signingKey: signing, keys: [0: key], verifiedCounter: 0, pulledSequence: 0, entriesGeneration: 0,
                entries: [:], lastSync: 0)
            state.rosterPin = roster.pin
            try SyncStateStore.save(state, in: keychain)
            var round = SyncRound(keychain: keychain, server: connection, state: state)
            _ = try round.run()
            return CircleCode.circleCode(of: roster)
        }
    }

    /// Asks to join the circle a member's circle code names, and returns the approval code a
    /// member must confirm with ``approve(_:)`` (`keychain sync approve`, which asks for it).
    ///
    /// The approval code is 100 random bits this device makes and shows: it never goes to the
    /// server, and the answer must be authenticated with it, so only the member whose user types
    /// it can let this device in. Nothing syncs until ``finishJoining(timeout:)`` receives the
    /// circle key. Calling this again while the request is open returns the same approval code;
    /// with another `deviceName`, the request is withdrawn and filed again under that name, with
    /// a new approval code (``renameJoinRequest(to:)``).
    ///
    /// The circle code is checked (its check group) before anything is sent to the server, so a
    /// typo is refused here rather than found as a circle that fails verification after a
    /// member admitted this device.
    ///
    /// - Parameters:
    ///   - server: the circle's server, a libpq connection string.
    ///   - circleCode: the code `keychain sync status` (``status()``) shows on a member.
    ///   - deviceName: how the other members see this device.
    /// - Throws: ``SyncError/Code/invalidCode`` for something that is not a circle code or has a
    ///   typo; ``SyncError/Code/invalidState`` when the keychain already belongs to a circle, or
    ///   when a member already approved the open request under another name.
    public func requestToJoin(server: String, circleCode: String, deviceName: String) throws(SyncError) -> String {
        let (circleID, pin) = try CircleCode.parseCircleCode(circleCode)
        return try serialised { () throws(SyncError) in
            if let existing = try SyncStateStore.load(from: keychain) {
                guard !existing.isMember, existing.circleID == circleID else {
                    throw SyncError.alreadyInACircle
                }
                if existing.deviceName != deviceName {
                    return try fileJoinRequestAgain(existing, renamedTo: deviceName)
                }
                // Filed again in case the first filing did not reach the server.
                let body = try Self.joinRequest(of: existing).body(
                    circleID: circleID, approvalCode: existing.approvalCode)
                try SyncServer.connect(existing.server, circleID: circleID).fileRequest(existing.deviceID, body: body)
                return existing.approvalCode
            }
            return try fileJoinRequest(server: server, circleID: circleID, pin: pin, deviceName: deviceName)
        }
    }

    /// Files a new join request (new device id, keys and approval code) and saves the waiting state.
    func fileJoinRequest(server: String, circleID: UUID, pin: Data, deviceName: String) throws(SyncError) -> String {
        var state = SyncState(
            circleID: circleID, deviceID: UUID(), deviceName: deviceName, server: server, agreementKey: .init(),
            signingKey: .init(), keys: [:], verifiedCounter: 0, pulledSequence: 0, entriesGeneration: 0, entries: [:],
            lastSync: 0)
        state.approvalCode = CircleCode.newApprovalCode()
        state.circleCodePin = pin
        let body = try Self.joinRequest(of: state).body(circleID: circleID, approvalCode: state.approvalCode)
        let connection = try SyncServer.connect(server, circleID: circleID)
        try connection.fileRequest(state.deviceID, body: body)
        try SyncStateStore.save(state, in: keychain)
        return state.approvalCode
    }

    /// Approves the join request whose approval code was read off the joining device: admits
    /// it to the roster under this device's signature and wraps the circle key to it.
    ///
    /// The new device is vouched for by this one: if this device is ever removed, so is every
    /// device it admitted, unless the removal keeps them. Syncs first, so the key and roster are
    /// the circle's newest.
    ///
    /// - Parameter approvalCode: the code the joining device showed (case, spaces and dashes do not matter).
    /// - Returns: the new member's id.
    /// - Throws: ``SyncError/Code/invalidCode`` when the code has a typo (its check group does not
    ///   match: refused before anything is sent to the server) or no open request opens with it;
    ///   ``SyncError/Code/tampered`` when the roster fails verification.
    @discardableResult
    public func approve(_ approvalCode: String) throws(SyncError) -> UUID {
        try approveDevice(approvalCode).deviceID
    }

    /// ``approve(_:)``, returning the new member as the roster now lists it: its id and the name
    /// it asked to join under (made safe for a terminal, as ``SyncStatus/Member/name`` is), so
    /// that the user who typed the code sees which device got in.
    ///
    /// - Parameter approvalCode: the code the joining device showed (case, spaces and dashes do not matter).
    /// - Returns: the new member.
    /// - Throws: as ``approve(_:)``.
    @discardableResult
    public func approveDevice(_ approvalCode: String) throws(SyncError) -> SyncStatus.Member {
        try CircleCode.checkApprovalCode(approvalCode)
        try syncNow()
        let state = try memberState()
        guard let key = state.currentKey else { throw SyncError.notInACircle }
        let connection = try SyncServer.connect(state.server, circleID: state.circleID)
        for filed in try connection.openRequests() {
            guard
                let request = JoinRequest(
                    body: filed.body, requestID: filed.requestID, circleID: state.circleID, approvalCode: approvalCode)
            else { continue }
            let recipient: Curve25519.KeyAgreement.PublicKey
            do { recipient = try .init(rawRepresentation: request.agreementKey) } catch {
                throw SyncError.tampered("a join request whose public key is invalid")
            }
            let admitted = try connection.connection.transaction { () throws(SyncError) -> Roster.Member? in
                // Membership changes are serialised with pushes and removals by the manifest lock.
                guard let row = try connection.manifest(forUpdate: true) else {
                    throw SyncError.tampered("no manifest for this circle (its rows were deleted)")
                }
                let manifest = try Manifest.open(row.body, counter: row.counter) { $0 == key.generation ? key : nil }
                var roster = try connection.roster(key: key, continuing: state.rosterPin)
                guard roster.members[state.deviceID] != nil, roster.generation == key.generation else {
                    throw SyncError.noLongerAMemberToApprove
                }
                var event = roster.nextEvent(.admitted, author: state.deviceID, subject: request.requestID)
                (event.signingKey, event.agreementKey, event.name) = (
                    request.signingKey, request.agreementKey, request.name
                )
                try event.sign(with: state.signingKey, circleID: state.circleID)
                try roster.apply(event)
                guard try connection.appendRosterEvent(at: event.position, body: event.sealed(key: key)) else {
                    return nil
                }
                // The floor is the authenticated counter: the new device never accepts less than this device saw.
                let wrapped = try KeyWrap.wrap(
                    key, counterFloor: max(state.verifiedCounter, manifest.counter), to: recipient,
                    device: request.requestID, signedBy: state.signingKey)
                try connection.writeKeyWrap(request.requestID, generation: key.generation, body: wrapped)
                // Rolled back (the admission with it) when the request is gone or answered meanwhile:
                // the joining device withdrew it to ask again under another name.
                guard
                    try connection.answerRequest(
                        request.requestID,
                        answer: JoinRequest.answer(
                            wrap: wrapped, roster: roster.pin, circleID: state.circleID,
                            requestID: request.requestID, approvalCode: approvalCode))
                else {
                    throw SyncError.joinRequestWithdrawn
                }
                return roster.members[request.requestID]
            }
            guard let admitted else {
                throw SyncError.approvalRaced
            }
            return SyncStatus.Member(admitted, thisDevice: state.deviceID)
        }
        throw SyncError.noJoinRequestForApprovalCode
    }

    /// Completes a join once a member approved it: receives the circle key, checks that the
    /// member the approval code was typed on sent it and that the roster admits this device's
    /// keys, records this device as a member and runs the first sync. When the circle moved to
    /// a newer key since the approval, takes that one (signed by the member that made it).
    ///
    /// - Parameter timeout: how long to wait for the approval (polling every half second).
    /// - Returns: `true` when joined, `false` when the request is still unanswered.
    /// - Throws: ``SyncError/Code/tampered`` when the answer was not made by the member given
    ///   the approval code, or the roster does not admit this device.
    @discardableResult
    public func finishJoining(timeout: Duration = .zero) throws(SyncError) -> Bool {
        try finishJoiningWithReport(timeout: timeout) != nil
    }

    /// ``finishJoining(timeout:)``, returning what the first sync did (an empty report when this
    /// device had already joined), or `nil` when the request is still unanswered: a device set up
    /// from a backup learns there how many copies of values the circle deleted it removed
    /// (``SyncReport/revokedCopiesRemoved``).
    /// - Throws: as ``finishJoining(timeout:)``.
    public func finishJoiningWithReport(timeout: Duration = .zero) throws(SyncError) -> SyncReport? {
        try serialised { () throws(SyncError) -> SyncReport? in
            guard var state = try SyncStateStore.load(from: keychain) else { throw SyncError.notInACircle }
            if state.isMember { return SyncReport() }
            let connection = try SyncServer.connect(state.server, circleID: state.circleID)
            let deadline = ContinuousClock.now + timeout
            var answer = try connection.answer(to: state.deviceID)
            while answer == nil && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.5)
                answer = try connection.answer(to: state.deviceID)
            }
            guard let answer else { return nil }
            let (wrap, pin) = try JoinRequest.openAnswer(
                answer, circleID: state.circleID, requestID: state.deviceID, approvalCode: state.approvalCode)
            let admission = try KeyWrap.unwrap(
                wrap, with: state.agreementKey, circleID: state.circleID, device: state.deviceID)
            // A removal since the approval moved the circle on: this device's key is then the newest one wrapped to it.
            var newest: KeyWrap.Unwrapped?
            if let row = try connection.manifest(forUpdate: false),
                let generation = Manifest.claimedGeneration(of: row.body),
                generation > admission.key.generation
            {
                guard let body = try connection.keyWrap(for: state.deviceID, generation: generation) else {
                    throw SyncError.removedBeforeJoining
                }
                newest = try KeyWrap.unwrap(
                    body, with: state.agreementKey, circleID: state.circleID, device: state.deviceID)
            }
            let key = newest?.key ?? admission.key
            let roster = try connection.roster(key: key, continuing: pin)
            guard Self.roster(roster, holds: state.circleCodePin) else {
                throw SyncError.tampered(
                    "a circle whose history is not the one the circle code names (someone who learnt the approval code, or a removed device, answered)"
                )
            }
            guard let me = roster.members[state.deviceID],
                me.signingKey == state.signingKey.publicKey.rawRepresentation,
                me.agreementKey == state.agreementKey.publicKey.rawRepresentation, roster.generation == key.generation,
                let admitter = me.admittedBy.flatMap({ roster.signingKeys[$0] }), admission.isSigned(by: admitter)
            else {
                throw SyncError.tampered(
                    "an approval that the circle's roster does not record for this device's keys, or a key not wrapped by the member that admitted it"
                )
            }
            if let newest {
                guard let rotator = roster.rotatedBy[key.generation].flatMap({ roster.signingKeys[$0] }),
                    newest.isSigned(by: rotator)
                else {
                    throw SyncError.tampered("a new circle key that the circle's roster does not show a member making")
                }
            }
            state.keys = [key.generation: key]
            state.entriesGeneration = key.generation
            state.verifiedCounter = (newest ?? admission).counterFloor
            state.approvalCode = ""
            state.rosterPin = roster.pin
            try SyncStateStore.save(state, in: keychain)
            try connection.deleteRequest(state.deviceID)
            var round = SyncRound(keychain: keychain, server: connection, state: state)
            return try round.run()
        }
    }

    // MARK: - Syncing

    /// Pulls what the other devices changed, merges it with what changed here, and pushes the
    /// result. Safe to call at any time and from several processes; an interrupted sync is
    /// completed by the next.
    ///
    /// - Throws: ``SyncError/Code/serverUnreachable`` when offline (local changes wait in the
    ///   keychain), ``SyncError/Code/tampered`` when the server's answers fail verification
    ///   (nothing was applied), ``SyncError/Code/notAMember`` outside a circle.
    /// - Parameter verifyingEverything: pull and check every record, not only the new ones, so
    ///   that a record this device already had and the server dropped is noticed too (an
    ///   incremental sync notices drops of records it has not seen yet). Costs one read of the
    ///   whole circle.
    @discardableResult
    public func syncNow(verifyingEverything: Bool = false) throws(SyncError) -> SyncReport {
        try serialised { () throws(SyncError) in
            // The header alone tells whether anything happened since the last sync; the entries
            // and local rows are read only when something did.
            guard let header = try SyncStateStore.loadHeader(from: keychain), header.isMember else {
                throw SyncError.notInACircle
            }
            let connection = try SyncServer.connect(header.server, circleID: header.circleID)
            if !verifyingEverything {
                var probe = SyncRound(keychain: keychain, server: connection, state: header)
                if try probe.isIdle() {
                    var report = SyncReport()
                    report.counter = header.verifiedCounter
                    return report
                }
            }
            let state = header.isHeaderOnly ? try memberState() : header
            var round = SyncRound(keychain: keychain, server: connection, state: state)
            round.pullsEverything = verifyingEverything
            return try round.run()
        }
    }

    // MARK: - Status

    /// The circle as this device sees it: the members and the devices that left, the counter it
    /// verified, when it last synced. Reads and checks the roster from the server; changes nothing.
    ///
    /// - Throws: ``SyncError/Code/invalidState`` when the circle moved to a new key since this
    ///   device last synced (sync first); ``SyncError/Code/tampered`` for a roster that fails verification.
    public func status() throws(SyncError) -> SyncStatus {
        guard let state = try SyncStateStore.load(from: keychain) else { throw SyncError.notInACircle }
        guard let key = state.currentKey else {
            return SyncStatus(
                circleCode: nil, deviceID: state.deviceID, deviceName: state.deviceName, isMember: false, members: [],
                verifiedCounter: 0, syncedRecords: 0, lastSync: nil, generation: 0)
        }
        let connection = try SyncServer.connect(state.server, circleID: state.circleID)
        if let row = try connection.manifest(forUpdate: false),
            let generation = Manifest.claimedGeneration(of: row.body), generation > key.generation
        {
            throw SyncError.circleKeyChangedSinceLastSync
        }
        let roster = try connection.roster(key: key, continuing: state.rosterPin)
        var status = SyncStatus(
            circleCode: CircleCode.circleCode(of: roster), deviceID: state.deviceID, deviceName: state.deviceName,
            isMember: true,
            members: SyncStatus.Member.list(roster.members.values, thisDevice: state.deviceID),
            verifiedCounter: state.verifiedCounter,
            syncedRecords: state.entries.values.filter { !$0.isTombstone }.count,
            lastSync: state.lastSync > 0 ? Date(timeIntervalSince1970: state.lastSync) : nil, generation: key.generation
        )
        status.departed = SyncStatus.Member.list(roster.departed.values, thisDevice: state.deviceID)
        status.rosterFingerprint = roster.fingerprint
        return status
    }

    /// Leaves the circle: records in the roster, under this device's signature, that it left,
    /// and forgets the circle keys. The items stay in this keychain and on the other devices.
    ///
    /// A device that left still knew the circle key, so the others list it as departed
    /// (``SyncStatus/departed``) until a member removes it with ``removeDevice(_:keeping:rebuilding:forgettingUnreadableDeletions:)``,
    /// which replaces the key; the devices it admitted stay, still vouched for by it.
    ///
    /// - Parameter offline: forget the circle here even when the departure cannot be recorded
    ///   (the server cannot be reached or fails verification, or this device was removed); the
    ///   others then still list this device as a member: remove it from one of them.
    /// - Throws: the error that kept the departure from being recorded, when `offline` is false;
    ///   nothing changed then.
    public func leave(offline: Bool = false) throws(SyncError) {
        if let state = try SyncStateStore.load(from: keychain), state.isMember {
            do {
                // With the circle's newest key and roster.
                try syncNow()
                try serialised { () throws(SyncError) in try recordLeaving(try memberState()) }
            } catch {
                // Removed, or the server claims so: record the departure under the key held, if the roster still takes it.
                let recorded =
                    error.code == .removed
                    && (try? serialised { () throws(SyncError) in try recordLeaving(try memberState()) }) != nil
                if !recorded && !offline {
                    guard error.code == .removed else { throw error }
                    throw SyncError.departureCannotBeRecorded
                }
            }
        }
        try serialised { () throws(SyncError) in
            guard let state = try SyncStateStore.load(from: keychain) else { throw SyncError.notInACircle }
            if !state.isMember {
                try? SyncServer.connect(state.server, circleID: state.circleID).deleteRequest(state.deviceID)
            }
            try SyncStateStore.remove(from: keychain)
        }
    }

    // MARK: - Helpers

    /// Appends this device's leaving to the roster (when it is still a member there) and drops its key wraps.
    private func recordLeaving(_ state: SyncState) throws(SyncError) {
        guard let key = state.currentKey else { throw SyncError.notInACircle }
        let connection = try SyncServer.connect(state.server, circleID: state.circleID)
        try connection.connection.transaction { () throws(SyncError) in
            guard try connection.manifest(forUpdate: true) != nil else { return }
            let roster = try connection.roster(key: key, continuing: state.rosterPin)
            if roster.members[state.deviceID] != nil {
                var event = roster.nextEvent(.left, author: state.deviceID, subject: state.deviceID)
                try event.sign(with: state.signingKey, circleID: state.circleID)
                guard try connection.appendRosterEvent(at: event.position, body: event.sealed(key: key)) else {
                    throw SyncError.leavingRaced
                }
            }
            try connection.deleteKeyWraps(of: state.deviceID)
        }
    }

    /// Whether `roster` holds the event a circle code's pin (`count (4) ‖ 96 bits of its hash`) names.
    static func roster(_ roster: Roster, holds pin: Data) -> Bool {
        guard pin.count == 16 else { return false }
        let count = Int(pin.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        guard count >= 1, count <= roster.events.count else { return false }
        return roster.events[count - 1].hash(circleID: roster.circleID).prefix(12) == pin.suffix(12)
    }

    /// The join request a waiting device filed.
    static func joinRequest(of state: SyncState) -> JoinRequest {
        JoinRequest(
            requestID: state.deviceID, agreementKey: state.agreementKey.publicKey.rawRepresentation,
            signingKey: state.signingKey.publicKey.rawRepresentation, name: state.deviceName)
    }

    /// Runs `body` as the only sync operation on this keychain: in this process (a lock) and
    /// across processes (``syncLock(_:)``).
    func serialised<T>(_ body: () throws(SyncError) -> T) throws(SyncError) -> T {
        try Self.roundLock.withLock { () throws(SyncError) -> T in try syncLock(body) }
    }

    func memberState() throws(SyncError) -> SyncState {
        guard let state = try SyncStateStore.load(from: keychain), state.isMember else { throw SyncError.notInACircle }
        return state
    }
}
