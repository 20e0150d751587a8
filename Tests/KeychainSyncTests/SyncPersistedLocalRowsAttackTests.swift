import Foundation
import GRDB
@testable import KeychainCore
@testable import KeychainSync
import XCTest

/// What a sync remembers of the keychain's rows (``LocalItemCache``) is kept in the sync state's
/// own sealed items, so a new process reads only what changed; an edited, deleted, planted or
/// older copy of it only makes the next sync read every item, and every sync still converges
/// to exactly the right items.
final class SyncPersistedLocalRowsAttackTests: SyncTestCase {
    /// One stored row of the items table and its lookup tags, as an attacker copies them.
    private struct StoredRow {
        var columns: Row
        var tags: [Data]
    }

    private func database(_ name: String) throws -> DatabaseQueue {
        try DatabaseQueue(path: directory.appendingPathComponent(name).appendingPathComponent("data/keychain.db").path)
    }

    private func accountIndex(_ keychain: Keychain, _ account: String) -> Data {
        keychain.keys.indexer.attribute(.account, .string(account))
    }

    /// The rows (with their tags) of the state items named by `accounts`.
    private func copyRows(_ keychain: Keychain, _ name: String, accounts: [String]) throws -> [StoredRow] {
        try database(name).read { db in
            try accounts.flatMap { account in
                try Row.fetchAll(
                    db, sql: "SELECT * FROM items WHERE account_index = ?",
                    arguments: [accountIndex(keychain, account)]
                ).map { row in
                    StoredRow(
                        columns: row,
                        tags: try Data.fetchAll(
                            db, sql: "SELECT tag FROM item_tags WHERE item_rowid = ?", arguments: [row["id"] as Int64]))
                }
            }
        }
    }

    /// Puts `rows` back in place of the current rows of the same accounts, as an older copy of them.
    private func restore(_ rows: [StoredRow], _ keychain: Keychain, _ name: String, accounts: [String]) throws {
        try database(name).write { db in
            for account in accounts {
                try db.execute(
                    sql: "DELETE FROM items WHERE account_index = ?", arguments: [accountIndex(keychain, account)])
            }
            for row in rows {
                let names = Array(row.columns.columnNames)
                try db.execute(
                    sql:
                        "INSERT INTO items (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
                    arguments: StatementArguments(names.map { row.columns[$0] as DatabaseValue }))
                for tag in row.tags {
                    try db.execute(
                        sql: "INSERT INTO item_tags (tag, item_rowid) VALUES (?, ?)",
                        arguments: [tag, row.columns["id"] as Int64])
                }
            }
        }
    }

    /// A laptop with 20 items in a circle with a server, both synced.
    private func syncedPair() throws -> (laptop: Keychain, server: Keychain, synchronizers: [KeychainSynchronizer]) {
        let laptop = try device("laptop")
        let server = try device("server")
        _ = try laptop.add(contentsOf: (0..<20).map { password("bulk", "account-\($0)", "value-\($0)") })
        let synchronizers = try circle([laptop, server])
        try synchronizers[0].syncNow()
        try synchronizers[1].syncNow()
        return (laptop, server, synchronizers)
    }

    /// A new synchronizer on a new instance of the laptop's keychain: what a new process has
    /// (nothing of a sync is kept in process memory).
    private func freshLaptop() throws -> KeychainSynchronizer {
        KeychainSynchronizer(keychain: try reopen("laptop"))
    }

    private func assertConverged(
        _ laptop: Keychain, _ server: Keychain, _ synchronizers: [KeychainSynchronizer], expected: [String: String],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try synchronizers[1].syncNow()
        try synchronizers[0].syncNow()
        XCTAssertEqual(try passwords(server), expected, "the server", file: file, line: line)
        XCTAssertEqual(try passwords(laptop), expected, "the laptop", file: file, line: line)
    }

    private func expected(_ extra: [String: String] = [:]) -> [String: String] {
        var all: [String: String] = [:]
        for index in 0..<20 { all["bulk/account-\(index)"] = "value-\(index)" }
        return all.merging(extra) { _, new in new }
    }

    func testAFreshProcessReadsOnlyWhatChanged() throws {
        let (laptop, server, synchronizers) = try syncedPair()
        try laptop.add(password("one", "more", "item"))
        XCTAssertEqual(try freshLaptop().syncNow().itemsRead, 1)
        XCTAssertEqual(try freshLaptop().syncNow().itemsRead, 0, "idle: nothing read")
        try assertConverged(laptop, server, synchronizers, expected: expected(["one/more": "item"]))
    }

    func testAnIdleSyncStillSeesAnotherDevicesPushAndAnotherProcesssWrite() throws {
        let (laptop, server, synchronizers) = try syncedPair()
        XCTAssertEqual(try freshLaptop().syncNow().itemsRead, 0)
        try server.add(password("from", "server", "pushed"))
        try synchronizers[1].syncNow()
        XCTAssertEqual(try freshLaptop().syncNow().received, 1, "another device's push is seen by an idle device")
        try reopen("laptop").update(
            Query(.genericPassword, [.service: "bulk", .account: "account-3"], synchronizable: .yes),
            with: ItemChanges(data: Data("changed by another process".utf8)))
        XCTAssertEqual(try freshLaptop().syncNow().pushed, 1, "another process's write is pushed")
        try assertConverged(
            laptop, server, synchronizers,
            expected: expected(["from/server": "pushed", "bulk/account-3": "changed by another process"]))
    }

    func testADeletedRowsShardMakesTheNextSyncReadEverything() throws {
        let (laptop, server, synchronizers) = try syncedPair()
        try database("laptop").write { db in
            try db.execute(
                sql: "DELETE FROM items WHERE account_index = ?", arguments: [accountIndex(laptop, "state.rows.0")])
        }
        try laptop.add(password("one", "more", "item"))
        XCTAssertEqual(try freshLaptop().syncNow().itemsRead, 21, "every item read again")
        try laptop.add(password("two", "more", "items"))
        XCTAssertEqual(try freshLaptop().syncNow().itemsRead, 1, "the rows were written again")
        try assertConverged(
            laptop, server, synchronizers, expected: expected(["one/more": "item", "two/more": "items"]))
    }

    func testAnEditedRowsShardMakesTheNextSyncReadEverything() throws {
        let (laptop, server, synchronizers) = try syncedPair()
        try database("laptop").write { db in
            let index = accountIndex(laptop, "state.rows.0")
            var secret = try XCTUnwrap(
                Data.fetchOne(db, sql: "SELECT secret FROM items WHERE account_index = ?", arguments: [index]))
            secret[secret.count / 2] ^= 0x01
            try db.execute(sql: "UPDATE items SET secret = ? WHERE account_index = ?", arguments: [secret, index])
        }
        try reopen("laptop").delete(
            Query(.genericPassword, [.service: "bulk", .account: "account-7"], synchronizable: .yes))
        XCTAssertEqual(try freshLaptop().syncNow().itemsRead, 19, "every item read again")
        var remaining = expected()
        remaining["bulk/account-7"] = nil
        try assertConverged(laptop, server, synchronizers, expected: remaining)
    }

    func testAnOlderCopyOfTheRowsShardMakesTheNextSyncReadEverything() throws {
        let (laptop, server, synchronizers) = try syncedPair()
        let accounts = ["state.rows.0"]
        let old = try copyRows(laptop, "laptop", accounts: accounts)
        try laptop.add(password("one", "more", "item"))
        try synchronizers[0].syncNow()
        try restore(old, laptop, "laptop", accounts: accounts)
        try laptop.update(
            Query(.genericPassword, [.service: "bulk", .account: "account-1"], synchronizable: .yes),
            with: ItemChanges(data: Data("new value".utf8)))
        XCTAssertEqual(try freshLaptop().syncNow().itemsRead, 21, "the old copy does not match the header")
        try assertConverged(
            laptop, server, synchronizers, expected: expected(["one/more": "item", "bulk/account-1": "new value"]))
    }

    func testARowsShardPlantedFromAnotherKeychainMakesTheNextSyncReadEverything() throws {
        let (laptop, server, synchronizers) = try syncedPair()
        let other = try device("other")
        try other.add(password("bulk", "account-0", "the attacker's value"))
        _ = try circle([other])
        let planted = try copyRows(other, "other", accounts: ["state.rows.0"])
        let row = try XCTUnwrap(planted.first).columns
        try database("laptop").write { db in
            for column in ["metadata_key", "metadata", "secret_key", "secret", "item_id", "row_version"] {
                try db.execute(
                    sql: "UPDATE items SET \(column) = ? WHERE account_index = ?",
                    arguments: [row[column] as DatabaseValue, accountIndex(laptop, "state.rows.0")])
            }
        }
        try laptop.add(password("one", "more", "item"))
        XCTAssertEqual(try freshLaptop().syncNow().itemsRead, 21, "the planted rows are not read")
        try assertConverged(laptop, server, synchronizers, expected: expected(["one/more": "item"]))
    }

    /// The whole state (header and every shard) put back as it was before a sync: the older
    /// rows it remembers name older ciphertexts, so every row changed since is read again.
    func testAnOlderCopyOfTheWholeStateStillConverges() throws {
        let (laptop, server, synchronizers) = try syncedPair()
        let accounts = ["state", "state.entries.0", "state.rows.0"]
        let old = try copyRows(laptop, "laptop", accounts: accounts)
        try laptop.update(
            Query(.genericPassword, [.service: "bulk", .account: "account-2"], synchronizable: .yes),
            with: ItemChanges(data: Data("changed".utf8)))
        try laptop.delete(Query(.genericPassword, [.service: "bulk", .account: "account-5"], synchronizable: .yes))
        try synchronizers[0].syncNow()
        try restore(old, laptop, "laptop", accounts: accounts)
        try laptop.add(password("after", "restore", "added"))
        var remaining = expected(["bulk/account-2": "changed", "after/restore": "added"])
        remaining["bulk/account-5"] = nil
        try freshLaptop().syncNow()
        try assertConverged(laptop, server, synchronizers, expected: remaining)
    }

    func testAnOlderCopyOfAnEntriesShardIsRefusedNotReadAsLessAgreed() throws {
        let (laptop, _, synchronizers) = try syncedPair()
        let accounts = ["state.entries.0"]
        let old = try copyRows(laptop, "laptop", accounts: accounts)
        try laptop.add(password("one", "more", "item"))
        try synchronizers[0].syncNow()
        try restore(old, laptop, "laptop", accounts: accounts)
        try laptop.add(password("two", "more", "items"))
        assertSyncError(.invalidState, try freshLaptop().syncNow())
    }

    /// A state in the single item earlier versions wrote (format 3) is read, and the next save
    /// moves it to the header and shards.
    func testAStateFromAnEarlierVersionIsReadAndMovedToShards() throws {
        let (laptop, server, synchronizers) = try syncedPair()
        let state = try XCTUnwrap(SyncStateStore.load(from: laptop))
        try SyncStateStore.remove(from: laptop)
        try laptop.applySynchronized([], state: SyncStateStore.item(account: "state", data: state.encoded))
        XCTAssertFalse(try XCTUnwrap(SyncStateStore.loadHeader(from: laptop)).layout.isSharded)
        try laptop.add(password("one", "more", "item"))
        XCTAssertEqual(try freshLaptop().syncNow().itemsRead, 21, "no rows remembered yet")
        XCTAssertTrue(try XCTUnwrap(SyncStateStore.loadHeader(from: laptop)).layout.isSharded)
        try laptop.add(password("two", "more", "items"))
        XCTAssertEqual(try freshLaptop().syncNow().itemsRead, 1)
        try assertConverged(
            laptop, server, synchronizers, expected: expected(["one/more": "item", "two/more": "items"]))
    }
}
