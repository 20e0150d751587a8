import Foundation
import XCTest

/// Issue 34 §4.1: a password in `keychain sync create/join --server` would sit in the process
/// list (`ps`, `/proc/PID/cmdline`, readable by every local user) for the whole of a join's
/// wait. The tool reads `--server` with libpq's own parser and refuses every form in which libpq
/// would read a password, before it opens a keychain or connects, without repeating it.
final class SyncServerPasswordTests: CLITestCase {
    private let secret = "hunter2-\(UUID().uuidString.prefix(8).lowercased())"

    /// Each form libpq reads a password from, with the keyword the refusal names.
    private var passwordForms: [(server: String, keyword: String)] {
        [
            ("host=/nonexistent dbname=k password=\(secret)", "password"),
            ("host=/nonexistent dbname=k password = \(secret)", "password"),
            ("host=/nonexistent dbname=k\tpassword=\(secret)", "password"),
            ("host=/nonexistent\tpassword\t=\t\(secret) dbname=k", "password"),
            ("host=/nonexistent password='\(secret) a b' dbname=k", "password"),
            ("host=/nonexistent password=\"\(secret)\" dbname=k", "password"),
            ("host=/nonexistent dbname=k sslpassword=\(secret)", "sslpassword"),
            ("postgresql://alice:\(secret)@localhost/k", "password"),
            ("postgres://alice:\(secret)@/k?host=/nonexistent", "password"),
            ("postgresql://alice@localhost/k?password=\(secret)", "password"),
            ("postgresql://localhost/k?connect_timeout=1&pass%77ord=\(secret)", "password")
        ]
    }

    func testEveryFormOfAPasswordInServerIsRefusedWithoutRepeatingIt() throws {
        for command in [["sync", "create"], ["sync", "join", "--circle", "AAAA-BBBB-CCCC"], ["sync", "join"]] {
            for (server, keyword) in passwordForms {
                let result = try run(
                    command + ["--server", server] + (command.contains("join") ? ["--wait", "0"] : []), input: Data())
                let context = "\(command) \(server.debugDescription): \(result.stderr)"
                XCTAssertEqual(result.status, 64, context)
                XCTAssertTrue(
                    result.stderr.contains(
                        "keychain: --server holds a password (libpq reads one from its \(keyword) keyword, or from the password part of a postgresql:// URI), and every local user can read a command line (ps, /proc) while it runs; nothing was done."
                    ), context)
                XCTAssertTrue(
                    result.stderr.contains(
                        "keep it in ~/.pgpass (or the file PGPASSFILE names) or in PGPASSWORD, or pass the whole connection string in KEYCHAIN_SYNC_SERVER"
                    ), context)
                XCTAssertFalse(
                    result.stderr.contains(secret) || result.stdout.contains(secret),
                    "the password is never repeated: \(context)")
                XCTAssertFalse(
                    FileManager.default.fileExists(atPath: home.appendingPathComponent("data/keychain.db").path),
                    "refused before a keychain was opened: \(context)")
            }
        }
    }

    /// libpq's keywords are case-sensitive: it reads no password from `PASSWORD=x`, and cannot
    /// read such a string at all. It is refused as unreadable (so whatever it holds leaves the
    /// process list at once), again without being repeated.
    func testAStringLibpqCannotReadIsRefusedWithoutRepeatingIt() throws {
        for server in [
            "host=/nonexistent PASSWORD=\(secret)", "host=/nonexistent Password = \(secret)",
            "host=/nonexistent password='\(secret)",
            "postgresql://alice:\(secret)@/%zz"
        ] {
            let result = try run(["sync", "create", "--server", server], input: Data())
            XCTAssertEqual(result.status, 64, result.stderr)
            XCTAssertTrue(
                result.stderr.contains(
                    "keychain: --server is not a connection string the keychain can use: libpq cannot read it as a connection string (see libpq's \"Connection Strings\"; its text is not repeated here, as it may hold a password); nothing was done."
                ), result.stderr)
            XCTAssertFalse(result.stderr.contains(secret) || result.stdout.contains(secret), result.stderr)
        }
    }

    /// The check refuses passwords, not connection strings: one without a password (an empty
    /// one included) goes on to connect, and the same string with a password is accepted from
    /// KEYCHAIN_SYNC_SERVER, which only this user can read.
    func testAStringWithoutAPasswordAndTheEnvironmentVariableAreAccepted() throws {
        for server in [
            "host=/nonexistent dbname=k user=alice connect_timeout=1",
            "postgresql://alice:@/k?host=/nonexistent&connect_timeout=1"
        ] {
            let result = try run(["sync", "create", "--server", server], input: Data())
            XCTAssertEqual(result.status, 69, "it tried to connect: \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("Cannot connect to the sync server"), result.stderr)
        }
        let result = try run(
            ["sync", "create"], input: Data(),
            changing: ["KEYCHAIN_SYNC_SERVER": "host=/nonexistent dbname=k password=\(secret) connect_timeout=1"])
        XCTAssertEqual(result.status, 69, "it tried to connect: \(result.stderr)")
        XCTAssertFalse(result.stderr.contains(secret), result.stderr)
    }
}
