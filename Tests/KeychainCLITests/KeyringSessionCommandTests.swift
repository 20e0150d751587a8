#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AttackTestSupport
import CPseudoTerminal
import Foundation
import XCTest

/// Issue 35, item 2: `keychain unlock` where there is no `XDG_RUNTIME_DIR` (a root shell, a
/// container, CI, cron) keeps the session in the kernel keyring, for the next process of the
/// same user only, until `keychain lock`.
final class KeyringSessionCommandTests: CLITestCase {
    private let noRuntime: [String: String?] = ["XDG_RUNTIME_DIR": nil]

    override func setUpWithError() throws {
        try super.setUpWithError()
        if FileManager.default.fileExists(atPath: "/run/user/\(getuid())") {
            throw XCTSkip("/run/user/\(getuid()) exists here, so sessions go there without XDG_RUNTIME_DIR")
        }
    }

    private func withoutRuntime(_ arguments: [String], input: String = "", changing changes: [String: String?]? = nil)
        throws -> CLIResult
    {
        try run(arguments, input: Data(input.utf8), changing: changes ?? noRuntime)
    }

    func testUnlockWithoutARuntimeDirectoryLastsIntoTheNextProcessUntilLock() throws {
        XCTAssertStatus(try withoutRuntime(["create", "--passphrase"], input: "pass\n"), 0)
        XCTAssertStatus(
            try withoutRuntime(
                ["add-generic-password", "-s", "svc", "-a", "a", "-w", "secret-a", "--unlock"], input: "pass\n"), 0)
        XCTAssertStatus(try withoutRuntime(["find-generic-password", "-s", "svc", "-a", "a", "-w"]), 51)

        XCTAssertStatus(try withoutRuntime(["unlock", "--timeout", "600"], input: "pass\n"), 0)
        let found = try withoutRuntime(["find-generic-password", "-s", "svc", "-a", "a", "-w"])
        XCTAssertStatus(found, 0)
        XCTAssertEqual(found.stdout, "secret-a\n", "a second process resumes the session from the keyring")
        let status = try withoutRuntime(["status", "--json"]).json()
        XCTAssertEqual(status["lockState"] as? String, "unlocked")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: runtime.path), [], "no file anywhere")
        // with a runtime directory: none there
        XCTAssertStatus(try run(["find-generic-password", "-s", "svc", "-a", "a", "-w"], input: Data()), 51)

        XCTAssertStatus(try withoutRuntime(["lock"]), 0)
        XCTAssertStatus(try withoutRuntime(["find-generic-password", "-s", "svc", "-a", "a", "-w"]), 51)
    }

    func testAWrongPassphraseIsReportedAsWrongWithoutARuntimeDirectory() throws {
        XCTAssertStatus(try withoutRuntime(["create", "--passphrase"], input: "pass\n"), 0)
        let wrong = try withoutRuntime(["unlock"], input: "wrong\n")
        XCTAssertStatus(wrong, 50)
        XCTAssertTrue(wrong.stderr.contains("not correct"), wrong.stderr)
        XCTAssertFalse(
            wrong.stderr.contains("runtime directory"), "the passphrase, not the place of the ticket: \(wrong.stderr)")
        // With XDG_RUNTIME_DIR naming a directory that is not there, too.
        let missing = try withoutRuntime(
            ["unlock"], input: "wrong\n", changing: ["XDG_RUNTIME_DIR": "/nonexistent-\(UUID().uuidString)"])
        XCTAssertStatus(missing, 50)
        XCTAssertFalse(missing.stderr.contains("runtime directory"), missing.stderr)
    }

    /// A user without a login session (no XDG_RUNTIME_DIR, no /run/user/<uid>), as cron runs it;
    /// as root, nobody (65534) through setpriv. Another uid sees no key and gets no unlock from it.
    func testAUserWithoutALoginSessionKeepsASessionOnlyForItself() throws {
        let asRoot = getuid() == 0
        let nobody = try privateDirectory("nobody", owner: 65534)
        defer { try? FileManager.default.removeItem(at: nobody) }
        let user: [String: String?] = [
            "XDG_RUNTIME_DIR": nil, "SECURE_STORAGE_HOME": nobody.appendingPathComponent("home").path,
            "HOME": nobody.path
        ]
        func asUser(_ uid: Int, _ arguments: [String], input: String = "", changing changes: [String: String?] = user)
            throws -> CLIResult
        {
            guard asRoot else { return try run(arguments, input: Data(input.utf8), changing: changes) }
            return try run(
                ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", Self.executable.path] + arguments,
                input: Data(input.utf8),
                executable: URL(fileURLWithPath: "/usr/bin/setpriv"), changing: changes)
        }
        XCTAssertStatus(try asUser(65534, ["create", "--passphrase"], input: "pass\n"), 0)
        XCTAssertStatus(
            try asUser(
                65534, ["add-generic-password", "-s", "svc", "-a", "a", "-w", "secret-a", "--unlock"], input: "pass\n"),
            0)
        XCTAssertStatus(try asUser(65534, ["unlock", "--timeout", "600"], input: "pass\n"), 0)
        XCTAssertEqual(try asUser(65534, ["find-generic-password", "-s", "svc", "-a", "a", "-w"]).stdout, "secret-a\n")

        if asRoot {
            // Another uid, with a copy of the keychain it may open: no key of the session is
            // visible to it, and its processes resume nothing.
            let status = try asUser(65534, ["status", "--json"]).json()
            let vault = try XCTUnwrap(status["vaultID"] as? String)
            let other = try privateDirectory("other", owner: 65533)
            defer { try? FileManager.default.removeItem(at: other) }
            let copy = Process()
            copy.executableURL = URL(fileURLWithPath: "/bin/sh")
            copy.arguments = [
                "-c", "cp -a \"$1/home\" \"$2/home\" && chown -R 65533:65533 \"$2/home\"", "sh", nobody.path, other.path
            ]
            try copy.run()
            copy.waitUntilExit()
            XCTAssertEqual(copy.terminationStatus, 0)
            let otherUser: [String: String?] = [
                "XDG_RUNTIME_DIR": nil, "SECURE_STORAGE_HOME": other.appendingPathComponent("home").path,
                "HOME": other.path
            ]
            XCTAssertStatus(
                try asUser(65533, ["find-generic-password", "-s", "svc", "-a", "a", "-w"], changing: otherUser), 51)
            let seen = try run(
                ["--reuid=65533", "--regid=65533", "--clear-groups", "/bin/cat", "/proc/keys"], input: Data(),
                executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
            XCTAssertStatus(seen, 0)
            XCTAssertFalse(seen.stdout.contains("secure-storage:unlock:\(vault)"), seen.stdout)
            let own = try run(
                ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/cat", "/proc/keys"], input: Data(),
                executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
            XCTAssertTrue(
                own.stdout.contains("secure-storage:unlock:\(vault)"), "the owner sees its key: \(own.stdout)")
        }

        XCTAssertStatus(try asUser(65534, ["lock"]), 0)
        XCTAssertStatus(try asUser(65534, ["find-generic-password", "-s", "svc", "-a", "a", "-w"]), 51)
    }

    /// Docker's default seccomp profile: keyctl and add_key answer EPERM. `unlock` says so and
    /// names what works, and both alternatives it names do work there.
    func testWhereTheKernelKeyringIsBlockedUnlockNamesWhatWorks() throws {
        XCTAssertStatus(try withoutRuntime(["create", "--passphrase"], input: "pass\n"), 0)
        XCTAssertStatus(
            try withoutRuntime(
                ["add-generic-password", "-s", "svc", "-a", "a", "-w", "secret-a", "--unlock"], input: "pass\n"), 0)
        XCTAssertStatus(try refusingKeyrings(["unlock"], input: "wrong\n"), 50)  // the passphrase first
        let refused = try refusingKeyrings(["unlock"], input: "pass\n")
        XCTAssertStatus(refused, 53)
        for expected in [
            "kernel keyring is not available", "Operation not permitted", "seccomp",
            "install -d -m 700 /dev/shm/keychain-$(id -u) && export XDG_RUNTIME_DIR=/dev/shm/keychain-$(id -u)",
            "--passphrase-file"
        ] {
            XCTAssertTrue(refused.stderr.contains(expected), "\(expected) in: \(refused.stderr)")
        }
        XCTAssertFalse(refused.stderr.contains("pass\n"), refused.stderr)
        XCTAssertEqual(
            try refusingKeyrings(["status", "--json"]).json()["lockState"] as? String, "beforeFirstUnlock", "no session"
        )

        // What it names: a memory-backed directory of one's own, …
        let own = URL(fileURLWithPath: "/dev/shm/keychain-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: own, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: own) }
        XCTAssertStatus(try refusingKeyrings(["unlock"], input: "pass\n", changing: ["XDG_RUNTIME_DIR": own.path]), 0)
        XCTAssertEqual(
            try refusingKeyrings(
                ["find-generic-password", "-s", "svc", "-a", "a", "-w"], changing: ["XDG_RUNTIME_DIR": own.path]
            ).stdout,
            "secret-a\n")
        // … or the passphrase from a file on each command.
        let file = try passphraseFile("pass")
        XCTAssertEqual(
            try refusingKeyrings(["find-generic-password", "-s", "svc", "-a", "a", "-w", "--passphrase-file", file.path]
            ).stdout, "secret-a\n")
    }

    /// Runs the tool as ``withoutRuntime(_:input:changing:)`` does, started from a thread whose
    /// seccomp filter refuses keyctl and add_key with EPERM (the child inherits it).
    private func refusingKeyrings(_ arguments: [String], input: String = "", changing changes: [String: String?]? = nil)
        throws -> CLIResult
    {
        let process = self.process(arguments, executable: Self.executable, changing: changes ?? noRuntime)
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try FilteredStart(process).run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = DrainedPipe(stdout.fileHandleForReading)
        let errors = DrainedPipe(stderr.fileHandleForReading)
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus, stdout: output.text(), stderr: errors.text())
    }

    /// A 0700 directory in /tmp owned by `owner` (when running as root; else by the current user).
    private func privateDirectory(_ name: String, owner: uid_t) throws -> URL {
        let url = URL(fileURLWithPath: "/tmp/kc-\(name)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        if getuid() == 0 { XCTAssertEqual(chown(url.path, owner, owner), 0) }
        return url
    }
}
