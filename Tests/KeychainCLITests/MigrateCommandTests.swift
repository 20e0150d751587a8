import Foundation
import XCTest

/// `keychain migrate`: dry run by default, --apply, --keep-source, clear errors, and nothing
/// changed when the keychain refuses the values.
final class MigrateCommandTests: CLITestCase {
    private func write(_ name: String, _ contents: Data, mode: Int = 0o600) -> String {
        let path = scratch.appendingPathComponent(name).path
        XCTAssertTrue(
            FileManager.default.createFile(atPath: path, contents: contents, attributes: [.posixPermissions: mode]))
        return path
    }

    func testDryRunThenApplyFromABinaryPlist() throws {
        let defaults: [String: Any] = [
            "authToken": "tok-0123456789", "refresh_token": "rt-abcdef", "launchCount": 12, "theme": "dark"
        ]
        let plist = try PropertyListSerialization.data(fromPropertyList: defaults, format: .binary, options: 0)
        let file = write("com.acme.app.plist", plist, mode: 0o644)

        let dryRun = try keychain("migrate", "--from", file, "--json")
        XCTAssertStatus(dryRun, 0)
        let plan = try dryRun.json()
        XCTAssertEqual(plan["applied"] as? Bool, false)
        XCTAssertEqual(plan["service"] as? String, "com.acme.app")
        XCTAssertEqual(
            (plan["items"] as? [[String: Any]])?.compactMap { $0["key"] as? String }, ["authToken", "refresh_token"])
        XCTAssertFalse(dryRun.stdout.contains("tok-0123456789"), "the plan shows no values")
        XCTAssertTrue(dryRun.stderr.contains("--apply"))
        XCTAssertEqual(FileManager.default.contents(atPath: file), plist, "a dry run changes nothing")

        let applied = try keychain("migrate", "--from", file, "--apply", "--json")
        XCTAssertStatus(applied, 0)
        XCTAssertEqual(try applied.json()["sourceScrubbed"] as? Bool, true)
        XCTAssertTrue(applied.stderr.contains("Rotate"), "recommends rotating: \(applied.stderr)")
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "com.acme.app", "-a", "authToken", "-w").stdout,
            "tok-0123456789\n")
        var format = PropertyListSerialization.PropertyListFormat.xml
        let rest = try XCTUnwrap(
            PropertyListSerialization.propertyList(
                from: XCTUnwrap(FileManager.default.contents(atPath: file)),
                options: [], format: &format) as? [String: Any])
        XCTAssertEqual(format, .binary)
        XCTAssertEqual(Set(rest.keys), ["launchCount", "theme"])
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)
            .intValue
        XCTAssertEqual(mode, 0o644)

        let again = try keychain("migrate", "--from", file, "--apply")
        XCTAssertStatus(again, 0)
        XCTAssertTrue(again.stderr.contains("already migrated"), again.stderr)
    }

    func testKeepSourceAndExplicitKeys() throws {
        let env = "API_TOKEN=tok_4f9a8b7c6d5e4f3a2b1c\nDB_PASSWORD=hunter2\nCLIENT_ID=abc\n"
        let file = write(".env", Data(env.utf8))
        let kept = try keychain(
            "migrate", "--from", file, "--key", "CLIENT_ID", "--match", "*PASS*", "--service", "svc",
            "--sensitivity", "public", "--apply", "--keep-source")
        XCTAssertStatus(kept, 0)
        XCTAssertEqual(FileManager.default.contents(atPath: file), Data(env.utf8))
        let listed = try XCTUnwrap(try keychain("list", "-s", "svc", "--json").json()["items"] as? [[String: Any]])
        XCTAssertEqual(
            Set(listed.compactMap { ($0["attributes"] as? [String: Any])?["acct"] as? String }),
            ["CLIENT_ID", "DB_PASSWORD"])
        XCTAssertEqual(Set(listed.compactMap { ($0["attributes"] as? [String: Any])?["pdmn"] as? String }), ["ck"])
    }

    func testConnectionStringsAreDetectedAndTheJournalStaysOutOfList() throws {
        let env = "DATABASE_URL=postgres://app:pa55@db/app\nAPP_NAME=shop\nLOG_URL=https://logs.example.com/in\n"
        let file = write(".env", Data(env.utf8))
        let dryRun = try keychain("migrate", "--from", file, "--service", "com.acme.api")
        XCTAssertStatus(dryRun, 0)
        XCTAssertTrue(
            dryRun.stdout.contains("DATABASE_URL") && dryRun.stdout.contains("a password (user:password@)"),
            dryRun.stdout)
        XCTAssertFalse(dryRun.stdout.contains("LOG_URL") || dryRun.stdout.contains("APP_NAME"), dryRun.stdout)
        XCTAssertFalse((dryRun.stdout + dryRun.stderr).contains("pa55"), "the plan never shows the password")

        let named = try keychain("migrate", "--from", file, "--service", "com.acme.api", "--key", "APP_NAME")
        XCTAssertTrue(named.stderr.contains("add --detect"), "says that --key turned the detector off: \(named.stderr)")
        XCTAssertFalse(named.stdout.contains("DATABASE_URL"), named.stdout)
        let both = try keychain("migrate", "--from", file, "--service", "com.acme.api", "--key", "APP_NAME", "--detect")
        XCTAssertTrue(both.stdout.contains("DATABASE_URL") && both.stdout.contains("APP_NAME"), both.stdout)

        XCTAssertStatus(try keychain("migrate", "--from", file, "--service", "com.acme.api", "--apply"), 0)
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "com.acme.api", "-a", "DATABASE_URL", "-w").stdout,
            "postgres://app:pa55@db/app\n")
        XCTAssertEqual(
            String(decoding: try XCTUnwrap(FileManager.default.contents(atPath: file)), as: UTF8.self),
            "APP_NAME=shop\nLOG_URL=https://logs.example.com/in\n")

        let listed = try keychain("list")
        XCTAssertStatus(listed, 0)
        XCTAssertEqual(listed.stdout.split(separator: "\n").count, 1, "only the migrated item: \(listed.stdout)")
        XCTAssertFalse(listed.stdout.contains("SecureStorage.migrations"))
        XCTAssertTrue(listed.stderr.contains("1 item"), listed.stderr)
        let listedJSON = try XCTUnwrap(try keychain("list", "--json").json()["items"] as? [[String: Any]])
        XCTAssertEqual(listedJSON.count, 1)
        let journal = try keychain("list", "-s", "SecureStorage.migrations")
        XCTAssertEqual(
            journal.stdout, "",
            "the journal lives in the library's own namespace, which no command lists: \(journal.stdout)")

        // An item of the user's in that service is an ordinary item, listed, and no migration may
        // put values there.
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "SecureStorage.migrations", "-a", "api_token", "-w", "x"), 0)
        XCTAssertTrue(try keychain("list").stdout.contains("api_token"))
        let reserved = write(
            "SecureStorage.migrations.plist",
            try PropertyListSerialization.data(fromPropertyList: ["api_token": "t0k"], format: .xml, options: 0))
        let refused = try keychain("migrate", "--from", reserved, "--apply")
        XCTAssertStatus(refused, 64)
        XCTAssertTrue(refused.stderr.contains("choose another --service"), refused.stderr)
    }

    func testBadInputAndLockedKeychainChangeNothing() throws {
        let broken = write("broken.xml", Data("<map>\n<int name=\"n\" value=\"x\" />\n</map>".utf8))
        let malformed = try keychain("migrate", "--from", broken, "--apply")
        XCTAssertStatus(malformed, 65)
        XCTAssertTrue(malformed.stderr.contains("broken.xml:2"), malformed.stderr)
        XCTAssertStatus(try keychain("migrate", "--from", scratch.appendingPathComponent("missing.env").path), 74)
        let env = write("app.env", Data("SECRET_KEY=s3cr3t\n".utf8))
        XCTAssertStatus(try keychain("migrate", "--from", env, "--key", "NOPE"), 65)

        XCTAssertStatus(try keychain("create", "--passphrase", input: "pw\n"), 0)
        let locked = try keychain("migrate", "--from", env, "--sensitivity", "secret", "--apply")
        XCTAssertStatus(locked, 51)
        XCTAssertEqual(
            FileManager.default.contents(atPath: env), Data("SECRET_KEY=s3cr3t\n".utf8), "the source is untouched")
        XCTAssertStatus(
            try keychain("migrate", "--from", env, "--sensitivity", "secret", "--apply", "--unlock", input: "pw\n"), 0)
        XCTAssertEqual(FileManager.default.contents(atPath: env), Data())
    }
}

/// Kills `keychain migrate --apply` with SIGKILL at random moments, then runs it again: every
/// value ends up in the keychain exactly once and the source is scrubbed exactly of them.
final class MigrateKillTests: CLITestCase {
    func testKilledMigrationsFinishWhenRunAgain() throws {
        let count = 200
        let env =
            (0..<count).map { "SECRET_\($0)=value-\($0)-q83vASNFZ4mrze8B" }.joined(separator: "\n") + "\nTHEME=dark\n"
        var generator = SystemRandomNumberGenerator()
        for round in 0..<6 {
            let file = scratch.appendingPathComponent("round\(round).env").path
            XCTAssertTrue(
                FileManager.default.createFile(
                    atPath: file, contents: Data(env.utf8), attributes: [.posixPermissions: 0o600]))
            try runKilled(
                ["migrate", "--from", file, "--service", "round\(round)", "--apply"],
                after: Double.random(in: 0.05...1.5, using: &generator))

            let text = String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)
            XCTAssertTrue(
                text == env || text == "THEME=dark\n", "round \(round): the source is whole or scrubbed, never half")
            let finished = try keychain("migrate", "--from", file, "--service", "round\(round)", "--apply")
            XCTAssertStatus(finished, 0)
            XCTAssertEqual(FileManager.default.contents(atPath: file), Data("THEME=dark\n".utf8), "round \(round)")
            let items = try XCTUnwrap(try keychain("list", "-s", "round\(round)", "--json").json()["items"] as? [Any])
            XCTAssertEqual(items.count, count, "round \(round): every value once")
            XCTAssertEqual(
                try keychain("find-generic-password", "-s", "round\(round)", "-a", "SECRET_\(count - 1)", "-w").stdout,
                "value-\(count - 1)-q83vASNFZ4mrze8B\n")
        }
    }
}
