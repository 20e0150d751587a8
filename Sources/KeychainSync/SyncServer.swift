import Foundation

/// The sync server's tables and the statements on them. The server is trusted with nothing but
/// availability: it stores random-looking ids, counters and ciphertext.
///
/// - `keychain_sync_manifests`: one row per circle, the MAC'd ``Manifest``; pushes lock it.
/// - `keychain_sync_records`: one row per item ever synced (id, version, sequence, sealed body).
/// - `keychain_sync_roster`: the circle's membership changes (``RosterEvent``), sealed, by position.
/// - `keychain_sync_key_wraps`: each generation's circle key wrapped to each member.
/// - `keychain_sync_requests`: join requests (public keys, a sealed name) and their answer (a wrapped key).
/// - `keychain_sync_acknowledgements`: each member's MAC'd ``SyncAcknowledgement``.
/// - `keychain_sync_deleted_values`: one row per circle, the sealed ``DeletedValues``.
struct SyncServer {
    /// The connection.
    let connection: PostgresConnection
    /// The circle every statement is about.
    let circleID: UUID

    /// The tables, created when missing (any member may run this; it changes nothing that exists).
    static let schema = [
        "CREATE TABLE IF NOT EXISTS keychain_sync_manifests (circle_id uuid PRIMARY KEY, counter int8 NOT NULL, body bytea NOT NULL)",
        "CREATE SEQUENCE IF NOT EXISTS keychain_sync_sequence",
        """
        CREATE TABLE IF NOT EXISTS keychain_sync_records (circle_id uuid NOT NULL, record_id bytea NOT NULL, version int8 NOT NULL,
            sequence int8 NOT NULL, body bytea NOT NULL, PRIMARY KEY (circle_id, record_id))
        """,
        "CREATE INDEX IF NOT EXISTS keychain_sync_records_by_sequence ON keychain_sync_records (circle_id, sequence)",
        """
        CREATE TABLE IF NOT EXISTS keychain_sync_roster (circle_id uuid NOT NULL, position int8 NOT NULL,
            body bytea NOT NULL, PRIMARY KEY (circle_id, position))
        """,
        """
        CREATE TABLE IF NOT EXISTS keychain_sync_key_wraps (circle_id uuid NOT NULL, device_id uuid NOT NULL, generation int8 NOT NULL,
            body bytea NOT NULL, PRIMARY KEY (circle_id, device_id, generation))
        """,
        """
        CREATE TABLE IF NOT EXISTS keychain_sync_requests (circle_id uuid NOT NULL, request_id uuid PRIMARY KEY, body bytea NOT NULL,
            answer bytea, created timestamptz NOT NULL DEFAULT now())
        """,
        """
        CREATE TABLE IF NOT EXISTS keychain_sync_acknowledgements (circle_id uuid NOT NULL, device_id uuid NOT NULL, body bytea NOT NULL,
            PRIMARY KEY (circle_id, device_id))
        """,
        "CREATE TABLE IF NOT EXISTS keychain_sync_deleted_values (circle_id uuid PRIMARY KEY, body bytea NOT NULL)"
    ]

    /// The channel a push notifies (with the circle id as payload), for devices that `LISTEN`.
    static let channel = "keychain_sync"

    /// The relations ``schema`` creates; when all exist, connecting creates nothing.
    static let relations = [
        "keychain_sync_manifests", "keychain_sync_sequence", "keychain_sync_records",
        "keychain_sync_records_by_sequence",
        "keychain_sync_roster", "keychain_sync_key_wraps", "keychain_sync_requests",
        "keychain_sync_acknowledgements", "keychain_sync_deleted_values"
    ]

    /// Connects and makes sure the tables exist: one query when they do (every sync connects),
    /// the schema statements only when one is missing.
    static func connect(_ connectionString: String, circleID: UUID) throws(SyncError) -> SyncServer {
        let connection = try PostgresConnection(connectionString)
        let present = try connection.execute(
            "SELECT count(*) FROM pg_class WHERE relname = ANY(string_to_array($1, ',')) AND pg_table_is_visible(oid)",
            [.text(relations.joined(separator: ","))])
        if try present.int64(0, 0) != Int64(relations.count) {
            // libpq prints notices ("relation … already exists, skipping") to standard error.
            try connection.execute("SET client_min_messages TO warning")
            // Concurrent CREATE … IF NOT EXISTS can still collide in the catalog: serialise them.
            try connection.transaction {
                () throws(SyncError) in
                try connection.execute("SELECT pg_advisory_xact_lock(7283617)")
                for statement in schema { try connection.execute(statement) }
            }
        }
        return SyncServer(connection: connection, circleID: circleID)
    }

    /// One record as the server holds it.
    struct StoredRecord: Sendable {
        var recordID: Data
        var version: Int64
        var sequence: Int64
        var body: Data
    }

    /// The manifest row: its counter column and body; `nil` when the circle has none.
    func manifest(forUpdate: Bool) throws(SyncError) -> (counter: Int64, body: Data)? {
        let rows = try connection.execute(
            "SELECT counter, body FROM keychain_sync_manifests WHERE circle_id = $1" + (forUpdate ? " FOR UPDATE" : ""),
            [.uuid(circleID)])
        guard rows.count == 1 else { return nil }
        return (try rows.int64(0, 0), try rows.bytes(0, 1))
    }

    /// Records with a sequence number above `sequence`, in sequence order.
    func records(after sequence: Int64) throws(SyncError) -> [StoredRecord] {
        let rows = try connection.execute(
            "SELECT record_id, version, sequence, body FROM keychain_sync_records WHERE circle_id = $1 AND sequence > $2 ORDER BY sequence",
            [.uuid(circleID), .int64(sequence)])
        var records: [StoredRecord] = []
        records.reserveCapacity(rows.count)
        for row in 0..<rows.count {
            records.append(
                StoredRecord(
                    recordID: try rows.bytes(row, 0), version: try rows.int64(row, 1), sequence: try rows.int64(row, 2),
                    body: try rows.bytes(row, 3)))
        }
        return records
    }

    /// The record with this id, or `nil`.
    func record(_ recordID: Data) throws(SyncError) -> StoredRecord? {
        let rows = try connection.execute(
            "SELECT record_id, version, sequence, body FROM keychain_sync_records WHERE circle_id = $1 AND record_id = $2",
            [.uuid(circleID), .bytes(recordID)])
        guard rows.count == 1 else { return nil }
        return StoredRecord(
            recordID: try rows.bytes(0, 0), version: try rows.int64(0, 1), sequence: try rows.int64(0, 2),
            body: try rows.bytes(0, 3))
    }

    /// Writes a record version and returns its new sequence number, provided the record is at
    /// version `replacing` on the server (absent for `nil`); `nil` when it is not.
    func write(recordID: Data, version: Int64, body: Data, replacing previous: Int64?) throws(SyncError) -> Int64? {
        let rows: PostgresRows
        if let previous {
            rows = try connection.execute(
                """
                UPDATE keychain_sync_records SET version = $3, sequence = nextval('keychain_sync_sequence'), body = $4
                WHERE circle_id = $1 AND record_id = $2 AND version = $5 RETURNING sequence
                """, [.uuid(circleID), .bytes(recordID), .int64(version), .bytes(body), .int64(previous)])
        } else {
            rows = try connection.execute(
                """
                INSERT INTO keychain_sync_records (circle_id, record_id, version, sequence, body) VALUES ($1, $2, $3, nextval('keychain_sync_sequence'), $4)
                ON CONFLICT (circle_id, record_id) DO NOTHING RETURNING sequence
                """, [.uuid(circleID), .bytes(recordID), .int64(version), .bytes(body)])
        }
        guard rows.count == 1 else { return nil }
        return try rows.int64(0, 0)
    }

    /// Inserts or replaces the manifest row.
    func writeManifest(counter: Int64, body: Data) throws(SyncError) {
        try connection.execute(
            """
            INSERT INTO keychain_sync_manifests (circle_id, counter, body) VALUES ($1, $2, $3)
            ON CONFLICT (circle_id) DO UPDATE SET counter = EXCLUDED.counter, body = EXCLUDED.body
            """, [.uuid(circleID), .int64(counter), .bytes(body)])
        try connection.execute("SELECT pg_notify($1, $2)", [.text(Self.channel), .text(circleID.uuidString)])
    }

    /// Every record of the circle.
    func allRecords() throws(SyncError) -> [StoredRecord] {
        try records(after: Int64.min)
    }

    /// Deletes a record at `version`; `false` when it is not at that version.
    func deleteRecord(_ recordID: Data, version: Int64) throws(SyncError) -> Bool {
        try connection.execute(
            "DELETE FROM keychain_sync_records WHERE circle_id = $1 AND record_id = $2 AND version = $3 RETURNING version",
            [.uuid(circleID), .bytes(recordID), .int64(version)]
        ).count == 1
    }

    /// Stores a member's acknowledgement, replacing its previous one.
    func writeAcknowledgement(_ deviceID: UUID, body: Data) throws(SyncError) {
        try connection.execute(
            """
            INSERT INTO keychain_sync_acknowledgements (circle_id, device_id, body) VALUES ($1, $2, $3)
            ON CONFLICT (circle_id, device_id) DO UPDATE SET body = EXCLUDED.body
            """, [.uuid(circleID), .uuid(deviceID), .bytes(body)])
    }

    /// Every member's stored acknowledgement, by device.
    func acknowledgements() throws(SyncError) -> [UUID: Data] {
        let rows = try connection.execute(
            "SELECT device_id, body FROM keychain_sync_acknowledgements WHERE circle_id = $1", [.uuid(circleID)])
        var bodies: [UUID: Data] = [:]
        for row in 0..<rows.count {
            guard let id = UUID(bytes: try rows.bytes(row, 0)) else {
                throw SyncError.tampered("an acknowledgement's device id of the wrong size")
            }
            bodies[id] = try rows.bytes(row, 1)
        }
        return bodies
    }

    /// The sealed ``DeletedValues`` body, or `nil` when the circle has none.
    func deletedValues() throws(SyncError) -> Data? {
        let rows = try connection.execute(
            "SELECT body FROM keychain_sync_deleted_values WHERE circle_id = $1", [.uuid(circleID)])
        return rows.count == 1 ? try rows.bytes(0, 0) : nil
    }

    /// Stores the sealed ``DeletedValues`` body (the manifest written in the same transaction names it).
    func writeDeletedValues(_ body: Data) throws(SyncError) {
        try connection.execute(
            """
            INSERT INTO keychain_sync_deleted_values (circle_id, body) VALUES ($1, $2)
            ON CONFLICT (circle_id) DO UPDATE SET body = EXCLUDED.body
            """, [.uuid(circleID), .bytes(body)])
    }

    /// Deletes every record of the circle (a key rotation writes them all again).
    func deleteAllRecords() throws(SyncError) {
        try connection.execute("DELETE FROM keychain_sync_records WHERE circle_id = $1", [.uuid(circleID)])
    }
}

// MARK: - Members, key wraps and join requests

extension SyncServer {
    /// The sealed roster events from `position` on, in order.
    func rosterRows(from position: Int64) throws(SyncError) -> [(position: Int64, body: Data)] {
        let rows = try connection.execute(
            "SELECT position, body FROM keychain_sync_roster WHERE circle_id = $1 AND position >= $2 ORDER BY position",
            [.uuid(circleID), .int64(position)])
        return try (0..<rows.count).map { (row) throws(SyncError) -> (Int64, Data) in
            (try rows.int64(row, 0), try rows.bytes(row, 1))
        }
    }

    /// Reads, opens and checks the whole roster under `key`.
    /// - Parameter pinned: what the device verified before; the roster must continue it.
    func roster(key: CircleKey, continuing pinned: Roster.Pin?) throws(SyncError) -> Roster {
        let events = try rosterRows(from: 0).map { (row) throws(SyncError) -> RosterEvent in
            try RosterEvent.open(row.body, position: row.position, key: key)
        }
        return try Roster.verify(events, circleID: circleID, continuing: pinned)
    }

    /// The longest prefix of the roster that opens under `key` and verifies, continuing `pinned`:
    /// what a member rebuilding the circle keeps when a member about to be removed appended
    /// events that do not verify.
    /// - Throws: ``SyncError/Code/tampered`` when even the prefix this device verified before is not there.
    func verifiedRosterPrefix(key: CircleKey, continuing pinned: Roster.Pin) throws(SyncError) -> Roster {
        var roster = Roster(circleID: circleID)
        for row in try rosterRows(from: 0) {
            guard row.position == Int64(roster.events.count),
                let event = try? RosterEvent.open(row.body, position: row.position, key: key)
            else { break }
            do { try roster.apply(event) } catch { break }
        }
        let events = Array(roster.events.prefix(Int(pinned.count)))
        _ = try Roster.verify(events, circleID: circleID, continuing: pinned)
        return roster
    }

    /// Appends a sealed event at `position`; `false` when that position is taken (another
    /// member changed the roster first).
    func appendRosterEvent(at position: Int64, body: Data) throws(SyncError) -> Bool {
        try connection.execute(
            """
            INSERT INTO keychain_sync_roster (circle_id, position, body) VALUES ($1, $2, $3) ON CONFLICT (circle_id, position) DO NOTHING RETURNING position
            """, [.uuid(circleID), .int64(position), .bytes(body)]
        ).count == 1
    }

    /// Replaces the whole roster (a key rotation seals every event again under the new key).
    func replaceRoster(_ roster: Roster, key: CircleKey) throws(SyncError) {
        try connection.execute("DELETE FROM keychain_sync_roster WHERE circle_id = $1", [.uuid(circleID)])
        for event in roster.events {
            guard try appendRosterEvent(at: event.position, body: event.sealed(key: key)) else {
                throw SyncError.tampered("a roster position written twice during a key rotation")
            }
        }
    }

    /// Removes the circle keys wrapped to a device and its acknowledgement (it left, or was removed).
    func deleteKeyWraps(of deviceID: UUID) throws(SyncError) {
        try connection.execute(
            "DELETE FROM keychain_sync_key_wraps WHERE circle_id = $1 AND device_id = $2",
            [.uuid(circleID), .uuid(deviceID)])
        try connection.execute(
            "DELETE FROM keychain_sync_acknowledgements WHERE circle_id = $1 AND device_id = $2",
            [.uuid(circleID), .uuid(deviceID)])
    }

    /// Stores a generation's key wrapped to a device.
    func writeKeyWrap(_ deviceID: UUID, generation: UInt32, body: Data) throws(SyncError) {
        try connection.execute(
            """
            INSERT INTO keychain_sync_key_wraps (circle_id, device_id, generation, body) VALUES ($1, $2, $3, $4)
            ON CONFLICT (circle_id, device_id, generation) DO UPDATE SET body = EXCLUDED.body
            """, [.uuid(circleID), .uuid(deviceID), .int64(Int64(generation)), .bytes(body)])
    }

    /// The key wrapped for a device at a generation, or `nil`.
    func keyWrap(for deviceID: UUID, generation: UInt32) throws(SyncError) -> Data? {
        let rows = try connection.execute(
            "SELECT body FROM keychain_sync_key_wraps WHERE circle_id = $1 AND device_id = $2 AND generation = $3",
            [.uuid(circleID), .uuid(deviceID), .int64(Int64(generation))])
        return rows.count == 1 ? try rows.bytes(0, 0) : nil
    }

    /// Files a join request (a ``JoinRequest`` body).
    func fileRequest(_ requestID: UUID, body: Data) throws(SyncError) {
        try connection.execute(
            "INSERT INTO keychain_sync_requests (circle_id, request_id, body) VALUES ($1, $2, $3) ON CONFLICT (request_id) DO NOTHING",
            [.uuid(circleID), .uuid(requestID), .bytes(body)])
    }

    /// The circle's unanswered requests.
    func openRequests() throws(SyncError) -> [(requestID: UUID, body: Data)] {
        let rows = try connection.execute(
            "SELECT request_id, body FROM keychain_sync_requests WHERE circle_id = $1 AND answer IS NULL ORDER BY created",
            [.uuid(circleID)])
        var requests: [(UUID, Data)] = []
        for row in 0..<rows.count {
            guard let id = UUID(bytes: try rows.bytes(row, 0)) else {
                throw SyncError.tampered("a request id of the wrong size")
            }
            requests.append((id, try rows.bytes(row, 1)))
        }
        return requests
    }

    /// Answers an open request with a wrapped key; `false` when there is no such unanswered
    /// request (withdrawn, or answered meanwhile).
    @discardableResult
    func answerRequest(_ requestID: UUID, answer: Data) throws(SyncError) -> Bool {
        try connection.execute(
            "UPDATE keychain_sync_requests SET answer = $3 WHERE circle_id = $1 AND request_id = $2 AND answer IS NULL RETURNING request_id",
            [.uuid(circleID), .uuid(requestID), .bytes(answer)]
        ).count == 1
    }

    /// Withdraws an unanswered request; `false` when there is no such unanswered request (it was
    /// answered, or never filed). Its answer, once given, stays: the approving member admitted
    /// the device in the same transaction.
    func withdrawRequest(_ requestID: UUID) throws(SyncError) -> Bool {
        try connection.execute(
            "DELETE FROM keychain_sync_requests WHERE circle_id = $1 AND request_id = $2 AND answer IS NULL RETURNING request_id",
            [.uuid(circleID), .uuid(requestID)]
        ).count == 1
    }

    /// A request's answer, or `nil` while unanswered.
    func answer(to requestID: UUID) throws(SyncError) -> Data? {
        let rows = try connection.execute(
            "SELECT answer FROM keychain_sync_requests WHERE circle_id = $1 AND request_id = $2",
            [.uuid(circleID), .uuid(requestID)])
        guard rows.count == 1 else { return nil }
        return try rows.optionalBytes(0, 0)
    }

    /// Deletes a request once it was used.
    func deleteRequest(_ requestID: UUID) throws(SyncError) {
        try connection.execute(
            "DELETE FROM keychain_sync_requests WHERE circle_id = $1 AND request_id = $2",
            [.uuid(circleID), .uuid(requestID)])
    }
}

/// The length of a record id (a keyed HMAC truncated as the keychain's blind indexes are).
enum BlindIndexLength {
    static let bytes = 16
}
