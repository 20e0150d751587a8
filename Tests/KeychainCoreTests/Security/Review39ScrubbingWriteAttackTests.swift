import CSQLiteHardening
import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// Issue 39 review (attacker): a delete commits at `synchronous = OFF` and relies on the
/// truncating checkpoint after it for durability (``Keychain/writeThenScrub(_:)``).
///
/// SQLite runs its automatic checkpoint (`wal_autocheckpoint`, 1,000 frames by default, which
/// this keychain leaves on) inside the commit, on the committing connection, with that
/// connection's sync flags: at `OFF` it copies the whole log into `keychain.db` without a single
/// `fsync`. The truncating checkpoint that follows then finds nothing left to copy, so it syncs
/// neither file (SQLite syncs only when it copies frames) and truncates the log: it returns
/// `SQLITE_OK` with an empty log, which `writeThenScrub` takes for "durable". The delete — and
/// every earlier commit that was durable only in the log — is then only in unsynced pages of
/// `keychain.db`; a power loss can lose it or leave a torn database file.
final class Review39ScrubbingWriteAttackTests: XCTestCase {
    /// The `synchronous` level of the connection each time SQLite's automatic checkpoint ran.
    private final class AutomaticCheckpoints: @unchecked Sendable {
        static let shared = AutomaticCheckpoints()
        private let lock = NSLock()
        private var levels: [Int32] = []

        func record(_ level: Int32) {
            lock.lock()
            levels.append(level)
            lock.unlock()
        }

        func take() -> [Int32] {
            lock.lock()
            defer {
                levels = []
                lock.unlock()
            }
            return levels
        }
    }

    /// Replaces SQLite's default log hook on the keychain's writer by one that does exactly what
    /// the default does (a passive checkpoint once the log holds 1,000 frames or more) and notes
    /// the connection's `synchronous` level when it does.
    private func observeAutomaticCheckpoints(_ keychain: Keychain) {
        keychain.database.writeWithoutTransaction { db in
            _ = sqlite3_wal_hook(
                db.sqliteConnection,
                { _, connection, name, frames in
                    guard let connection, frames >= 1000 else { return SQLITE_OK }
                    var statement: OpaquePointer?
                    var level: Int32 = -1
                    if sqlite3_prepare_v2(connection, "PRAGMA synchronous", -1, &statement, nil) == SQLITE_OK,
                        sqlite3_step(statement) == SQLITE_ROW
                    {
                        level = sqlite3_column_int(statement, 0)
                    }
                    sqlite3_finalize(statement)
                    AutomaticCheckpoints.shared.record(level)
                    sqlite3_wal_checkpoint(connection, name)
                    return SQLITE_OK
                }, nil)
        }
    }

    func testNoAutomaticCheckpointRunsWhileADeleteIsAtSynchronousOff() throws {
        let test = try TestKeychain()
        observeAutomaticCheckpoints(test.keychain)
        // Rows of about 3 KiB: one page each, so the delete below writes well over 1,000 frames.
        let secret = String(repeating: "s", count: 3000)
        _ = try test.keychain.add(contentsOf: (0..<1200).map { password("bulk", "account-\($0)", secret) })
        // The observer works: the add's commit crossed the threshold and checkpointed at FULL.
        let addLevels = AutomaticCheckpoints.shared.take()
        XCTAssertFalse(addLevels.isEmpty)
        XCTAssertEqual(addLevels.filter { $0 != 2 }, [])
        XCTAssertEqual(try test.keychain.delete(query("bulk")), 1200)
        // Disabling the automatic checkpoint for the delete (the fix) also removes this observer,
        // so an empty list passes; any level but FULL (2) is the bug.
        let levels = AutomaticCheckpoints.shared.take()
        XCTAssertEqual(
            levels.filter { $0 != 2 }, [],
            "SQLite's automatic checkpoint copied the delete into keychain.db at synchronous=OFF (no fsync); "
                + "the truncating checkpoint then had nothing to copy, synced nothing, and emptied the log")
        XCTAssertKeychainError(.itemNotFound, try test.openAnother().find(query("bulk")))
    }
}
