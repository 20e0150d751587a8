#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import KeychainServices
@testable import SecureStorage
import XCTest
import AttackTestSupport

/// Issue 16, part 6, for migrations: the files a migration writes beside a source in a shared
/// directory (`<file>.migrating-<pid>`, the `--backup-copy` `<file>.pre-migration`) are created
/// exclusively, 0600 and owned before the first byte; a name another user planted stops the run
/// with nothing written to it. The attacker is uid 65534, acting through `setpriv` (or, without
/// it, given files by root with `chown`).
final class MigrationFileSystemAttackTests: StorageTestCase {
    private var shared: URL!
    private var source: URL!
    private let env = "API_TOKEN=tok_migration_canary_7f3a\nTHEME=dark\n"

    override func setUpWithError() throws {
        try super.setUpWithError()
        // A shared sticky directory, like /tmp: everyone may create names, only their own.
        shared = directory.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(directory.path, 0o755), 0)
        XCTAssertEqual(chmod(shared.path, 0o1777), 0)
        source = shared.appendingPathComponent("app.env")
        try writeSource()
    }

    /// Writes the source, 0600 from its first byte (`FileManager.createFile` with attributes would
    /// make it 0666 under a umask of 0 until its chmod: the very race under test).
    private func writeSource() throws {
        try? FileManager.default.removeItem(at: source)
        let fd = open(source.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(Data(env.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }, env.utf8.count)
        close(fd)
    }

    private func migration() -> SourceMigration {
        SourceMigration(
            file: source, selection: KeySelection(names: ["API_TOKEN"]), service: "com.acme.app", sensitivity: .private)
    }

    private func text(_ url: URL) -> String? {
        FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
    }
    private func owner(_ url: URL) -> uid_t? {
        var info = stat()
        return lstat(url.path, &info) == 0 ? info.st_uid : nil
    }
    private func mode(_ url: URL) -> mode_t? {
        var info = stat()
        return lstat(url.path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    private func assertRefused<T>(
        _ body: @autoclosure () throws -> T, mentioning words: [String],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard let error = error as? MigrationError, error.code == .fileError, let reason = error.reason else {
                return XCTFail("\(error)", file: file, line: line)
            }
            for word in words { XCTAssertTrue(reason.contains(word), reason, file: file, line: line) }
            XCTAssertFalse(
                "\(error)".contains("tok_migration_canary"), "no secret in the error", file: file, line: line)
        }
    }

    /// The attacker creates `app.env.migrating-<pid>` (0666) before the victim migrates, hoping
    /// the scrubbed file is written into a file they can read and later rewrite.
    func testAPlantedTemporaryFileStopsTheScrubAndReceivesNothing() throws {
        let attacker = try AnotherUser.required()
        let trap = shared.appendingPathComponent("app.env.migrating-\(getpid())")
        try attacker.write(trap, "trap", mode: 0o666)
        assertRefused(
            try migration().run(), mentioning: ["another user (user id 65534)", trap.path, "nothing was written to it"])
        XCTAssertEqual(text(trap), "trap", "nothing was written to the attacker's file")
        XCTAssertEqual(owner(trap), AnotherUser.uid)
        XCTAssertEqual(text(source), env, "the source was not touched")
        // Once the planted file is gone, the same run resumes and finishes.
        try FileManager.default.removeItem(at: trap)
        let report = try migration().run()
        XCTAssertTrue(report.sourceScrubbed)
        XCTAssertEqual(text(source), "THEME=dark\n")
        XCTAssertEqual(mode(source), 0o600, "the source's mode is kept")
        XCTAssertEqual(try storage.string(for: "API_TOKEN"), "tok_migration_canary_7f3a")
    }

    /// The attacker plants `app.env.pre-migration` — a file of theirs, or a link to one — hoping
    /// `--backup-copy` writes the plaintext into it.
    func testAPlantedBackupCopyStopsTheRunAndReceivesNothing() throws {
        let attacker = try AnotherUser.required()
        let copy = shared.appendingPathComponent("app.env.pre-migration")
        let loot = shared.appendingPathComponent("loot")
        try attacker.write(loot, "", mode: 0o666)
        try attacker.write(copy, "trap", mode: 0o666)
        assertRefused(
            try migration().run(keepBackupCopy: true),
            mentioning: ["belongs to another user (user id 65534)", "nothing was written to it"])
        XCTAssertEqual(text(copy), "trap")
        XCTAssertEqual(owner(copy), AnotherUser.uid)
        XCTAssertEqual(text(source), env, "not scrubbed without its copy")

        try FileManager.default.removeItem(at: copy)
        try attacker.symlink(copy, to: loot)
        assertRefused(
            try migration().run(keepBackupCopy: true), mentioning: ["not a regular file", "nothing was written to it"])
        XCTAssertEqual(text(loot), "", "nothing was written through the link")
        XCTAssertEqual(text(source), env)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: shared.path).filter {
            $0.contains(".tmp-") || $0.contains(".migrating-")
        }
        XCTAssertEqual(leftovers, [], "no temporary file left behind")
    }

    /// The copy is never readable by another user, at any moment: another user reads every file
    /// in the directory in a loop (through `setpriv`) while the migration runs 30 times, and a
    /// watcher in this process records every mode the copy ever had.
    func testTheBackupCopyIsNeverReadableByAnotherUser() throws {
        let attacker = try AnotherUser.required()
        let copy = shared.appendingPathComponent("app.env.pre-migration")
        let reader = try attacker.startReadingEverything(in: shared)
        let watcher = CopyModeWatcher(directory: shared.path, prefix: "app.env.pre-migration")
        let previous = umask(0)  // the copy's privacy must not depend on the caller's umask
        for _ in 0..<30 {
            try writeSource()
            try? FileManager.default.removeItem(at: copy)
            try migration().run(keepBackupCopy: true)
            XCTAssertEqual(text(copy), env, "the copy holds the source as it was")
            XCTAssertEqual(mode(copy), 0o600)
        }
        umask(previous)
        let modes = watcher.stop()
        let stolen = reader.stop()
        XCTAssertFalse(modes.isEmpty, "the watcher saw the copy being made")
        XCTAssertEqual(
            modes.filter { $0 & 0o077 != 0 }, [],
            "modes the copy had at some moment: \(modes.map { String($0, radix: 8) })")
        if let stolen {
            XCTAssertFalse(stolen.contains("tok_migration_canary"), "another user read the secret")
            XCTAssertTrue(stolen.contains("started"), "the other user's reader ran")
        }
    }

    /// Root migrating another user's file gives the scrubbed file and the copy to that user
    /// (`fchown`, checked, before the first byte), mode 0600.
    func testRootMigratingAnotherUsersFileKeepsItsOwner() throws {
        _ = try AnotherUser.required()
        XCTAssertEqual(chown(source.path, AnotherUser.uid, AnotherUser.uid), 0)
        let report = try migration().run(keepBackupCopy: true)
        XCTAssertTrue(report.sourceScrubbed)
        let copy = shared.appendingPathComponent("app.env.pre-migration")
        XCTAssertEqual(owner(source), AnotherUser.uid)
        XCTAssertEqual(mode(source), 0o600)
        XCTAssertEqual(owner(copy), AnotherUser.uid)
        XCTAssertEqual(mode(copy), 0o600)
        XCTAssertEqual(text(copy), env)
    }
}

/// Records every mode that files named `prefix…` in `directory` had, from another thread.
private final class CopyModeWatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var modes: Set<mode_t> = []
    private let finished = DispatchSemaphore(value: 0)

    init(directory: String, prefix: String) {
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
                where name.hasPrefix(prefix) {
                    var info = stat()
                    guard lstat(directory + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                    _ = lock.withLock { modes.insert(info.st_mode & 0o7777) }
                }
            }
            finished.signal()
        }
    }

    func stop() -> [mode_t] {
        lock.withLock { running = false }
        finished.wait()
        return lock.withLock { modes.sorted() }
    }
}
#endif
