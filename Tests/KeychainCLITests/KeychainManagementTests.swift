import Foundation
import GRDB
import XCTest

/// create, status, passphrases, lock/unlock sessions and verify, through the executable.
final class KeychainManagementTests: CLITestCase {
    func testCreateAndStatus() throws {
        XCTAssertStatus(try keychain("status"), 53)
        XCTAssertStatus(try keychain("create"), 0)
        XCTAssertStatus(try keychain("create"), 45)
        try keychain("add-generic-password", "-s", "svc", "-a", "a", "-w", "1")
        try keychain("add-generic-password", "-s", "svc", "-a", "b", "-w", "2", "--accessibility", "cku")
        try keychain("add-internet-password", "-s", "example.com", "-w", "3")

        let status = try keychain("status", "--json").json()
        XCTAssertEqual(status["path"] as? String, home.appendingPathComponent("data/keychain.db").path)
        XCTAssertEqual(status["lockState"] as? String, "unlocked")
        XCTAssertEqual(status["hasPassphrase"] as? Bool, false)
        XCTAssertEqual(status["formatVersion"] as? Int, 6)
        XCTAssertEqual(status["totalItems"] as? Int, 3)
        XCTAssertEqual(status["items"] as? [String: Int], ["genp": 2, "inet": 1, "cert": 0, "keys": 0])
        XCTAssertEqual(status["itemsByAccessibility"] as? [String: Int], ["ak": 2, "cku": 1])
        XCTAssertEqual(
            (status["deviceBinding"] as? [String: Any])?["path"] as? String,
            home.appendingPathComponent("state/device.key").path)
        let text = try keychain("show-keychain-info")
        XCTAssertTrue(text.stdout.contains("items:           3 (genp 2, inet 1, cert 0, keys 0)"), text.stdout)

        let other = scratch.appendingPathComponent("other").path
        XCTAssertStatus(try keychain("create", "--keychain", other), 0)
        XCTAssertEqual(try keychain("status", "--keychain", other, "--json").json()["totalItems"] as? Int, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: other + "/data/keychain.db"))
    }

    func testPassphraseLockUnlockAndSessions() throws {
        XCTAssertStatus(try keychain("create", "--passphrase", input: "first pass\n"), 0)
        XCTAssertStatus(try keychain("add-generic-password", "-s", "svc", "-a", "ak", "-w", "ak-secret"), 51)
        // Standard input carries the secret; the passphrase comes from a file (StandardInputAttackTests).
        let first = try passphraseFile("first pass")
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "-s", "svc", "-a", "ak", "--passphrase-file", first.path, "--stdin",
                input: "ak-secret\n"), 0)
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "-s", "svc", "-a", "ps", "-w", "ps-secret", "--accessibility", "akpu",
                "--unlock", input: "first pass\n"), 0)
        XCTAssertEqual(try keychain("status", "--json").json()["lockState"] as? String, "beforeFirstUnlock")

        let locked = try keychain("find-generic-password", "-s", "svc", "-a", "ak", "-w")
        XCTAssertStatus(locked, 51)
        XCTAssertTrue(locked.stderr.contains("keychain unlock"), "says what to do: \(locked.stderr)")
        XCTAssertStatus(try keychain("unlock", input: "wrong\n"), 50)
        XCTAssertStatus(try keychain("unlock", "--timeout", "600", input: "first pass\n"), 0)
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "svc", "-a", "ak", "-w").stdout, "ak-secret\n",
            "the session unlocks later commands")
        let status = try keychain("status", "--json").json()
        XCTAssertEqual(status["lockState"] as? String, "unlocked")
        XCTAssertNotNil((status["unlockSession"] as? [String: Any])?["expires"])
        XCTAssertStatus(try keychain("lock"), 0)
        XCTAssertStatus(try keychain("find-generic-password", "-s", "svc", "-a", "ak", "-w"), 51)

        XCTAssertStatus(
            try keychain(
                "change-passphrase", "--passphrase-file", passphraseFile("wrong").path, input: "second pass\n"), 50)
        XCTAssertStatus(try keychain("change-passphrase", "--passphrase-file", first.path, input: "second pass\n"), 0)
        XCTAssertStatus(
            try keychain("find-generic-password", "-s", "svc", "-a", "ak", "-w", "--unlock", input: "first pass\n"), 50)
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "svc", "-a", "ak", "-w", "--unlock", input: "second pass\n")
                .stdout, "ak-secret\n")

        let refused = try keychain("remove-passphrase", input: "second pass\n")
        XCTAssertStatus(refused, 64)
        XCTAssertTrue(refused.stderr.contains("--yes"), refused.stderr)
        XCTAssertStatus(
            try keychain("find-generic-password", "-s", "svc", "-a", "ps", "-w", "--unlock", input: "second pass\n"), 0)
        let removed = try keychain("remove-passphrase", "--yes", input: "second pass\n")
        XCTAssertStatus(removed, 0)
        XCTAssertTrue(removed.stderr.contains("1 passcode-set item destroyed"), removed.stderr)
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "svc", "-a", "ak", "-w").stdout, "ak-secret\n",
            "always unlocked now")
        XCTAssertStatus(try keychain("find-generic-password", "-s", "svc", "-a", "ps"), 44)
        XCTAssertStatus(try keychain("lock"), 64)
    }

    func testVerifyReportsDamagedItems() throws {
        for account in ["a", "b", "c"] {
            try keychain("add-generic-password", "-s", "svc", "-a", account, "-w", "value-\(account)")
        }
        let clean = try keychain("verify", "--json")
        XCTAssertStatus(clean, 0)
        XCTAssertEqual(try clean.json()["verifiedItems"] as? Int, 3)
        XCTAssertEqual(try clean.json()["clean"] as? Bool, true)

        let database = try DatabaseQueue(path: home.appendingPathComponent("data/keychain.db").path)
        try database.write { db in
            var secret = try XCTUnwrap(Data.fetchOne(db, sql: "SELECT secret FROM items WHERE id = 2"))
            secret[0] ^= 0x40
            try db.execute(sql: "UPDATE items SET secret = ? WHERE id = 2", arguments: [secret])
        }
        try database.close()
        let damaged = try keychain("verify", "--json")
        XCTAssertStatus(damaged, 52)
        let report = try damaged.json()
        XCTAssertEqual(report["clean"] as? Bool, false)
        XCTAssertEqual(report["verifiedItems"] as? Int, 2)
        let items = try XCTUnwrap(report["damagedItems"] as? [[String: Any]])
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(items.first?["row"] as? Int, 2)
        XCTAssertEqual(items.first?["class"] as? String, "genp")
        XCTAssertNotNil(report["stateProblem"] as? String, "an edited row also changes the state digest")
        let text = try keychain("verify")
        XCTAssertStatus(text, 52)
        // Named as users know the item (its service and account), not by its row alone.
        XCTAssertTrue(text.stdout.contains("DAMAGED service \"svc\", account \"b\" (genp, row 2)"), text.stdout)
        XCTAssertEqual(items.first?["service"] as? String, "svc")
        XCTAssertEqual(items.first?["account"] as? String, "b")
        XCTAssertTrue(text.stderr.contains("restore"), text.stderr)
        XCTAssertFalse((text.stdout + text.stderr).contains("value-"), "no secret in the report")
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "svc", "-a", "c", "-w").stdout, "value-c\n",
            "the others still read")
    }
}

#if os(Linux)
/// The tool keeps secrets out of core dumps (issue 7, memory hygiene).
final class ProcessHardeningTests: CLITestCase {
    func testCoreDumpsAreDisabledWhileASecretIsRead() throws {
        var inherited = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &inherited)
        guard inherited.rlim_max != 0 else {
            throw XCTSkip("the hard core limit is already 0 here, so the tool's own setting cannot be observed")
        }
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["add-generic-password", "-s", "hardening", "-a", "core"]
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The tool now waits for the secret on standard input, with the secret's buffer about to exist.
        let limits = "/proc/\(process.processIdentifier)/limits"
        var coreLimit = ""
        for _ in 0..<3000 {  // up to 30 s on a loaded machine
            coreLimit =
                (try? String(contentsOfFile: limits, encoding: .utf8))?
                .split(separator: "\n").first { $0.hasPrefix("Max core file size") }.map(String.init) ?? ""
            if coreLimit.split(separator: " ").suffix(3).prefix(2) == ["0", "0"] { break }
            usleep(10_000)
        }
        input.fileHandleForWriting.write(Data("s3cret\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(
            coreLimit.split(separator: " ").suffix(3).prefix(2), ["0", "0"],
            "soft and hard core limits must be 0: \(coreLimit)")
    }

    /// `migrate` used to parse every secret of its source before it hardened: the tool now calls
    /// `SecureStorage.hardenProcess()` before it even parses its arguments. The source here is a
    /// FIFO with no writer, so the process waits in `open`; its limits are checked while it
    /// waits, then it is killed.
    func testMigrateIsHardenedBeforeItReadsTheSource() throws {
        var inherited = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &inherited)
        guard inherited.rlim_max != 0 else {
            throw XCTSkip("the hard core limit is already 0 here, so the tool's own setting cannot be observed")
        }
        let source = scratch.appendingPathComponent("app.env").path
        XCTAssertEqual(mkfifo(source, 0o600), 0)
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["migrate", "--from", source]
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let limits = "/proc/\(process.processIdentifier)/limits"
        var coreLimit = ""
        for _ in 0..<3000 where process.isRunning {
            coreLimit =
                (try? String(contentsOfFile: limits, encoding: .utf8))?
                .split(separator: "\n").first { $0.hasPrefix("Max core file size") }.map(String.init) ?? ""
            if coreLimit.split(separator: " ").suffix(3).prefix(2) == ["0", "0"] { break }
            usleep(10_000)
        }
        XCTAssertTrue(process.isRunning, "still waiting for the source when its limits were read")
        // Stopped, not fed: writing to the FIFO after the reader went would raise SIGPIPE here.
        _ = kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(
            coreLimit.split(separator: " ").suffix(3).prefix(2), ["0", "0"],
            "hardened before the source was read: \(coreLimit)")
    }

    /// A health check (`keychain verify` in CI or cron) must not pass on a keychain it could not
    /// read: items of a locked class left unchecked give status 51 (a new user's trial found 0).
    func testVerifyOfALockedKeychainIsNotASuccess() throws {
        let passphrase = try passphraseFile("verify pass")
        XCTAssertStatus(try keychain(["create", "--passphrase-file", passphrase.path]), 0)
        XCTAssertStatus(
            try keychain([
                "add-generic-password", "-s", "svc", "-a", "a", "-w", "v", "--passphrase-file", passphrase.path
            ]), 0)
        let locked = try keychain("verify")
        XCTAssertStatus(locked, 51)
        XCTAssertTrue(
            locked.stderr.contains("not checked because the keychain is locked; run with --unlock"), locked.stderr)
        let lockedJSON = try keychain("verify", "--json")
        XCTAssertStatus(lockedJSON, 51)
        XCTAssertEqual(try lockedJSON.json()["lockedItems"] as? Int, 1)
        XCTAssertStatus(try keychain(["verify", "--json", "--passphrase-file", passphrase.path]), 0)
    }
}
#endif
