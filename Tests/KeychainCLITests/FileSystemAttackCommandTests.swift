#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import XCTest

/// Issue 16, parts 3, 4 and 6, through the `keychain` tool: another user (uid 65534, acting
/// through `setpriv`, or handed files by root with `chown` when it is missing) plants names in
/// a shared directory before the victim runs the tool; another process holds the keychain
/// directory's lock for ever.
final class FileSystemAttackCommandTests: CLITestCase {
    private static let otherUID: uid_t = 65534

    private func requireRoot(file: StaticString = #filePath, line: UInt = #line) throws {
        guard getuid() != 0 else { return }
        let message = "acting as another user (uid 65534) needs root, as CI runs"
        if ProcessInfo.processInfo.environment["REQUIRE_TEST_EXECUTABLES"] != nil {
            XCTFail(message, file: file, line: line)
            throw CocoaError(.featureUnsupported)
        }
        throw XCTSkip(message)
    }

    private static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs `sh -c script` as the other user (through `setpriv`); `false` without `setpriv`.
    private func asOtherUser(_ script: String, _ arguments: String...) throws -> Bool {
        guard let setpriv = Self.setpriv else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv)
        process.arguments =
            [
                "--reuid=\(Self.otherUID)", "--regid=\(Self.otherUID)", "--clear-groups", "--", "/bin/sh", "-c", script,
                "sh"
            ] + arguments
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, script)
        return true
    }

    private func plantFile(_ path: String, _ text: String) throws {
        if try !asOtherUser("umask 0; printf %s \"$2\" > \"$1\"", path, text) {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            XCTAssertEqual(chown(path, Self.otherUID, Self.otherUID), 0)
            XCTAssertEqual(chmod(path, 0o666), 0)
        }
    }

    private func plantDirectory(_ path: String) throws {
        if try !asOtherUser("mkdir -m 755 \"$1\"", path) {
            XCTAssertEqual(mkdir(path, 0o755), 0)
            XCTAssertEqual(chown(path, Self.otherUID, Self.otherUID), 0)
        }
    }

    private func owner(_ path: String) -> uid_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_uid : nil
    }
    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// A shared sticky directory (like /tmp) inside the scratch directory, reachable by the other user.
    private func sharedDirectory() throws -> String {
        XCTAssertEqual(chmod(scratch.path, 0o755), 0)
        let shared = scratch.appendingPathComponent("shared").path
        XCTAssertEqual(mkdir(shared, 0o755), 0)
        XCTAssertEqual(chmod(shared, 0o1777), 0)
        return shared
    }

    /// `--backup-copy` where the other user planted `FILE.pre-migration`: the run stops before the
    /// scrub with a file error, nothing is written to the planted file, and the source keeps its
    /// values; with the name free, the copy is made 0600.
    func testMigrateRefusesABackupCopyPlantedByAnotherUser() throws {
        try requireRoot()
        let shared = try sharedDirectory()
        let source = shared + "/app.env"
        let env = "API_TOKEN=tok_cli_canary_91c2\nTHEME=dark\n"
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: source, contents: Data(env.utf8), attributes: [.posixPermissions: 0o600]))
        let copy = source + ".pre-migration"
        try plantFile(copy, "trap")

        let refused = try keychain("migrate", "--from", source, "--key", "API_TOKEN", "--apply", "--backup-copy")
        XCTAssertStatus(refused, 74)
        XCTAssertTrue(refused.stderr.contains("belongs to another user (user id 65534)"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("nothing was written to it"), refused.stderr)
        XCTAssertFalse(
            refused.stderr.contains("tok_cli_canary") || refused.stdout.contains("tok_cli_canary"), "no secret printed")
        XCTAssertEqual(
            FileManager.default.contents(atPath: copy), Data("trap".utf8), "the planted file received nothing")
        XCTAssertEqual(owner(copy), Self.otherUID)
        XCTAssertEqual(
            FileManager.default.contents(atPath: source), Data(env.utf8), "the source still holds its values")

        try FileManager.default.removeItem(atPath: copy)
        XCTAssertStatus(try keychain("migrate", "--from", source, "--key", "API_TOKEN", "--apply", "--backup-copy"), 0)
        XCTAssertEqual(FileManager.default.contents(atPath: copy), Data(env.utf8))
        XCTAssertEqual(mode(copy), 0o600)
        XCTAssertEqual(owner(copy), getuid())
        XCTAssertEqual(FileManager.default.contents(atPath: source), Data("THEME=dark\n".utf8))
    }

    /// `SECURE_STORAGE_HOME` in a shared place where the other user created `data/` first: the
    /// tool refuses it, says whose it is and what to do, and never says `chown`.
    func testTheToolRefusesADataDirectoryPlantedByAnotherUser() throws {
        try requireRoot()
        let shared = try sharedDirectory()
        home = URL(fileURLWithPath: shared + "/home")
        XCTAssertEqual(mkdir(home.path, 0o755), 0)
        XCTAssertEqual(chmod(home.path, 0o1777), 0)
        try plantDirectory(home.path + "/data")
        let result = try keychain("add-generic-password", "-s", "svc", "-a", "acct", "-w", "s3cret")
        XCTAssertStatus(result, 53)
        XCTAssertTrue(
            result.stderr.contains("\(home.path)/data belongs to another user (user id 65534)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("remove it"), result.stderr)
        XCTAssertFalse(
            result.stderr.contains("chown"), "the victim is not told to take over the directory: \(result.stderr)")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: home.path + "/data"), [], "nothing was written into it")
    }

    /// Another process of this user holds the keychain directory's lock file for ever: the tool
    /// gives up after the bounded wait with a clear error and exit status 53, instead of hanging.
    func testTheToolDoesNotHangOnALockHeldForever() throws {
        XCTAssertStatus(try keychain("add-generic-password", "-s", "svc", "-a", "acct", "-w", "s3cret"), 0)
        guard
            let tool = ["/usr/bin/flock", "/bin/flock"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            let message = "the flock tool (util-linux) is needed to hold a lock from another process"
            if ProcessInfo.processInfo.environment["REQUIRE_TEST_EXECUTABLES"] != nil { XCTFail(message) }
            throw XCTSkip(message)
        }
        let data = home.appendingPathComponent("data").path
        let lockFile = data + "/directory.lock"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: tool)
        holder.arguments = ["--no-fork", "--exclusive", lockFile, "sleep", "120"]
        try holder.run()
        defer {
            if holder.isRunning {
                holder.terminate()
                holder.waitUntilExit()
            }
        }
        let fd = open(lockFile, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        var held = false
        for _ in 0..<2000 where !held {
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                held = true
            } else {
                flock(fd, LOCK_UN)
                usleep(5_000)
            }
        }
        XCTAssertTrue(held, "the other process holds the lock")

        let started = ContinuousClock.now
        let result = try keychain("find-generic-password", "-s", "svc", "-a", "acct", "-w")
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(25), "bounded")
        XCTAssertStatus(result, 53)
        XCTAssertTrue(result.stderr.contains("\(lockFile) is held by another process"), result.stderr)
        XCTAssertFalse(result.stdout.contains("s3cret"))
        holder.terminate()
        holder.waitUntilExit()
        XCTAssertEqual(try keychain("find-generic-password", "-s", "svc", "-a", "acct", "-w").stdout, "s3cret\n")
    }
}
