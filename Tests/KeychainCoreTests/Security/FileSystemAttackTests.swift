#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import XCTest
import AttackTestSupport
@_spi(Testing) @testable import KeychainCore

/// Issue 16, parts 3, 4 and 6: "a file system that gives nothing away". Each attack is done as
/// the attacker would: another user (uid 65534, run through `setpriv`, or files handed to it with
/// `chown` when `setpriv` is missing) plants directories, files and links in a shared directory
/// before the victim (this process, root in CI) uses it; another process holds a lock for ever; a
/// FIFO takes the place of a key file.
final class FileSystemAttackTests: XCTestCase {
    private var home: URL!
    private var runtimeBase: URL!
    private var location: KeychainLocation!
    private let options = KeychainOptions(
        passphraseHardening: .fixed(.insecureForTestingOnly), defaultAccessGroup: "TEAM.test.app")

    override func setUpWithError() throws {
        // A shared place (like /tmp): every user may create names in it, only their own.
        home = FileManager.default.temporaryDirectory.appendingPathComponent("kc-fs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(home.path, 0o1777), 0)
        runtimeBase = try TestKeychain.makeMemoryBackedDirectory()
        location = KeychainLocation(
            databaseURL: home.appendingPathComponent("data/keychain.db"),
            deviceKeyURL: home.appendingPathComponent("state/device.key"),
            runtimeDirectoryURL: runtimeBase.appendingPathComponent("secure-storage"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: home)
        try? FileManager.default.removeItem(at: runtimeBase)
    }

    private var dataDirectory: URL { location.databaseURL.deletingLastPathComponent() }
    private var stateDirectory: URL { location.deviceKeyURL.deletingLastPathComponent() }

    private func contents(_ url: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    /// Asserts a refusal that names the directory, says it is another user's, and does not tell
    /// the victim to take the directory over.
    private func assertRefusedAsAnotherUsers<T>(
        _ body: @autoclosure () throws -> T, directory: URL,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            let error = error as? KeychainError
            XCTAssertEqual(error?.code, .keychainUnavailable, "\(String(describing: error))", file: file, line: line)
            let message = error?.message ?? ""
            XCTAssertTrue(message.contains(directory.path), message, file: file, line: line)
            XCTAssertTrue(
                message.contains("belongs to another user (user id \(AnotherUser.uid))"), message, file: file,
                line: line)
            XCTAssertFalse(
                message.contains("chown") || message.contains("chmod"),
                "the victim is not told to take over someone else's directory: \(message)", file: file, line: line)
            XCTAssertTrue(
                message.contains("remove it") && message.contains("another location"), "it says what to do: \(message)",
                file: file, line: line)
        }
    }

    // MARK: - Directories of another user

    /// The attacker creates `data/` in the shared home before the victim's first run, hoping the
    /// keychain is created in a directory they control (they could then swap its files).
    func testADataDirectoryPlantedByAnotherUserIsRefused() throws {
        let attacker = try AnotherUser.required()
        try attacker.makeDirectory(dataDirectory, mode: 0o755)
        assertRefusedAsAnotherUsers(try Keychain(location: location, options: options), directory: dataDirectory)
        XCTAssertEqual(contents(dataDirectory), [], "nothing was created in the attacker's directory")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: location.deviceKeyURL.path), "no device key was made for it")
    }

    /// The same with `state/`, where the device key would go.
    func testAStateDirectoryPlantedByAnotherUserIsRefused() throws {
        let attacker = try AnotherUser.required()
        try attacker.makeDirectory(stateDirectory, mode: 0o755)
        assertRefusedAsAnotherUsers(try Keychain(location: location, options: options), directory: stateDirectory)
        XCTAssertEqual(
            contents(stateDirectory), [], "no device key (or anything else) was written into the attacker's directory")
    }

    /// The PIN file's directory and the runtime directory (unlock tickets) get the same check.
    func testAuthenticatorAndRuntimeDirectoriesOfAnotherUserAreRefused() throws {
        let attacker = try AnotherUser.required()
        let keychain = try Keychain(location: location, options: options)
        try keychain.setPassphrase("p")
        // Only root could have put these inside the user's private directories: handed over with chown.
        let authenticator = PINAuthenticator.fileURL(for: location).deletingLastPathComponent()
        try attacker.handOver(authenticator)
        assertRefusedAsAnotherUsers(
            try PINAuthenticator(keychain: location, prompt: { _ in "1234" }), directory: authenticator)
        let runtime = try XCTUnwrap(location.runtimeDirectoryURL)
        try attacker.handOver(runtime)
        assertRefusedAsAnotherUsers(try keychain.unlock(passphrase: "p", keepingSessionFor: nil), directory: runtime)
        XCTAssertEqual(contents(runtime), [], "no ticket was written")
    }

    // MARK: - Directories other users can write

    /// A 0777 (or sticky 1777) data directory: anyone could have planted or replaced its files.
    func testAWorldWritableDataDirectoryIsRefused() throws {
        for mode in [0o777, 0o1777, 0o770] as [mode_t] {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
            XCTAssertEqual(chmod(dataDirectory.path, mode), 0)
            XCTAssertThrowsError(try Keychain(location: location, options: options)) { error in
                let error = error as? KeychainError
                XCTAssertEqual(error?.code, .keychainUnavailable)
                XCTAssertTrue(
                    error?.message.contains("can be written by other users (mode \(String(mode, radix: 8)))") ?? false,
                    "\(String(describing: error))")
                XCTAssertTrue(error?.message.contains("Move it aside") ?? false, "\(String(describing: error))")
            }
            XCTAssertEqual(contents(dataDirectory), [], "nothing was created in it (mode \(String(mode, radix: 8)))")
            try FileManager.default.removeItem(at: dataDirectory)
        }
        // An existing keychain whose directory was opened up later is refused too.
        _ = try Keychain(location: location, options: options)
        XCTAssertEqual(chmod(stateDirectory.path, 0o777), 0)
        XCTAssertKeychainError(.keychainUnavailable, try Keychain(location: location, options: options))
    }

    /// A directory of the user that others may only read or enter (0755, as `mkdir` makes it) is
    /// made 0700 through its descriptor, and the keychain opens.
    func testAReadableDirectoryOfTheUserIsMadePrivate() throws {
        for directory in [dataDirectory, stateDirectory] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            XCTAssertEqual(chmod(directory.path, 0o755), 0)
        }
        _ = try Keychain(location: location, options: options)
        for directory in [dataDirectory, stateDirectory] {
            XCTAssertEqual(PlatformIO.ownerAndMode(of: directory.path)?.mode, 0o700, directory.path)
        }
    }

    // MARK: - Symbolic links

    /// `data/` or `state/` as a link (here the attacker's, in the shared home) is never followed,
    /// and so is not chmod-ed either: the link's target is left exactly as it was.
    func testSymbolicLinksToDirectoriesAreRefused() throws {
        let attacker = try AnotherUser.required()
        let loot = home.appendingPathComponent("loot")
        try attacker.makeDirectory(loot, mode: 0o777)
        func assertRefused(_ directory: URL, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try Keychain(location: location, options: options), file: file, line: line) { error in
                let error = error as? KeychainError
                XCTAssertEqual(error?.code, .keychainUnavailable, file: file, line: line)
                XCTAssertTrue(
                    error?.message.contains("\(directory.path) is a symbolic link") ?? false,
                    "\(String(describing: error))", file: file, line: line)
            }
            XCTAssertEqual(contents(loot), [], "nothing was written through the link", file: file, line: line)
            XCTAssertEqual(
                PlatformIO.ownerAndMode(of: loot.path)?.mode, 0o777, "the link's target was not chmod-ed", file: file,
                line: line)
        }
        try attacker.symlink(dataDirectory, to: loot)
        assertRefused(dataDirectory)
        try FileManager.default.removeItem(at: dataDirectory)
        // An existing keychain whose state directory was replaced by a link.
        _ = try Keychain(location: location, options: options)
        try FileManager.default.removeItem(at: stateDirectory)
        try attacker.symlink(stateDirectory, to: loot)
        assertRefused(stateDirectory)
        // The user's own link to a private directory is refused too: the check is on the name.
        try FileManager.default.removeItem(at: stateDirectory)
        let real = home.appendingPathComponent("real-state")
        try FileManager.default.createDirectory(
            at: real, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(at: stateDirectory, withDestinationURL: real)
        assertRefused(stateDirectory)
        XCTAssertEqual(contents(real), [])
    }

    // MARK: - Locks held for ever

    /// Another process of this user holds the data directory's lock and never lets go (`flock
    /// DIR/directory.lock sleep`): opening fails with `.busy` naming the lock file after the
    /// bounded wait, not a hang.
    func testADirectoryLockHeldForeverGivesBusyInsteadOfAHang() throws {
        _ = try Keychain(location: location, options: options)
        let holder = try LockHolder(holding: dataDirectory.appendingPathComponent("directory.lock"))
        defer { holder.stop() }
        let started = ContinuousClock.now
        XCTAssertThrowsError(try Keychain(location: location, options: KeychainOptions(busyTimeout: .seconds(1)))) {
            error in
            let error = error as? KeychainError
            XCTAssertEqual(error?.code, .busy, "\(String(describing: error))")
            XCTAssertTrue(error?.message.contains(dataDirectory.path) ?? false, "\(String(describing: error))")
            XCTAssertTrue(error?.message.contains("was still held after 10 s") ?? false, "\(String(describing: error))")
        }
        let waited = ContinuousClock.now - started
        XCTAssertGreaterThanOrEqual(
            waited, .seconds(9.5), "the wait is at least 10 s (creators run scrypt under the lock)")
        XCTAssertLessThan(waited, .seconds(20), "bounded")
        holder.stop()
        XCTAssertNoThrow(try Keychain(location: location, options: options), "opens once the lock is released")
    }

    /// Issue 34 §4.3: another user opened the data directory (`O_RDONLY`) while it was still
    /// readable (0755, left so by an earlier version or a umask), took its `flock` with
    /// `LOCK_EX` and keeps both after the directory is made 0700. The keychain's lock is on a
    /// 0600 file inside the directory, which that user can never open: the keychain opens at
    /// once and works (making the lock file an earlier version's directory lacks), while the
    /// attacker still holds the directory's lock.
    func testAStaleDescriptorOfTheDataDirectoryCannotHoldTheKeychainsLock() throws {
        let keychain = try Keychain(location: location, options: options)
        try keychain.add(password("svc", "before", "kept-secret"))
        // The directory as an earlier version left it: no lock file (it locked the directory), readable.
        let lockFile = dataDirectory.appendingPathComponent("directory.lock")
        try FileManager.default.removeItem(at: lockFile)
        XCTAssertEqual(chmod(dataDirectory.path, 0o755), 0)
        // The attacker: uid 65534 through setpriv when this is root, else a descriptor of this
        // process (a flock on another open of the directory conflicts all the same).
        let attacker = getuid() == 0 ? try AnotherUser.required() : nil
        let holder = try attacker?.start(#"exec flock --no-fork --exclusive "$1" sleep 120"#, dataDirectory.path)
        var ownDescriptor: Int32 = -1
        defer {
            if let holder, holder.isRunning {
                holder.terminate()
                holder.waitUntilExit()
            }
            if ownDescriptor >= 0 { close(ownDescriptor) }
        }
        if holder == nil {
            ownDescriptor = open(dataDirectory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            XCTAssertEqual(flock(ownDescriptor, LOCK_EX | LOCK_NB), 0)
        }
        XCTAssertTrue(directoryLockIsHeld(within: .seconds(10)), "the attacker holds the directory's flock")

        let started = ContinuousClock.now
        let reopened = try Keychain(location: location, options: options)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5), "no wait for the attacker's lock")
        XCTAssertEqual(
            PlatformIO.ownerAndMode(of: dataDirectory.path)?.mode, 0o700, "the opening made the directory private")
        XCTAssertEqual(
            try reopened.find(Query(.genericPassword, [.service: "svc"]), returning: .data).first?.data,
            Data("kept-secret".utf8))
        try reopened.add(password("svc", "after", "new-secret"))
        XCTAssertEqual(try Keychain(location: location, options: options).findAll(Query(.genericPassword)).count, 2)
        XCTAssertEqual(PlatformIO.ownerAndMode(of: lockFile.path)?.mode, 0o600)
        XCTAssertEqual(PlatformIO.ownerAndMode(of: lockFile.path)?.owner, PlatformIO.currentUserID)
        if let attacker { XCTAssertFalse(try attacker.canRead(lockFile), "the attacker cannot open the lock file") }
        XCTAssertTrue(directoryLockIsHeld(within: .zero), "the attack was in place all along")
    }

    /// A lock file that is not a 0600 regular file of this user (a link, or one others may open
    /// and so hold) is refused with a clear error, never followed or used.
    func testALockFileOthersCouldOpenIsRefused() throws {
        _ = try Keychain(location: location, options: options)
        let lockFile = dataDirectory.appendingPathComponent("directory.lock")
        XCTAssertEqual(chmod(lockFile.path, 0o644), 0)
        XCTAssertThrowsError(try Keychain(location: location, options: options)) { error in
            let message = (error as? KeychainError)?.message ?? "\(error)"
            XCTAssertEqual((error as? KeychainError)?.code, .keychainUnavailable, message)
            XCTAssertTrue(
                message.contains("\(lockFile.path) is not a regular file of yours that only you can open")
                    && message.contains("mode 644") && message.contains("Remove it"), message)
        }
        try FileManager.default.removeItem(at: lockFile)
        let target = home.appendingPathComponent("elsewhere")
        _ = FileManager.default.createFile(atPath: target.path, contents: Data())
        try FileManager.default.createSymbolicLink(at: lockFile, withDestinationURL: target)
        XCTAssertThrowsError(try Keychain(location: location, options: options)) { error in
            let message = (error as? KeychainError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("\(lockFile.path) is a symbolic link"), message)
        }
        try FileManager.default.removeItem(at: lockFile)
        XCTAssertNoThrow(try Keychain(location: location, options: options), "a removed lock file is made again")
        XCTAssertEqual(PlatformIO.ownerAndMode(of: lockFile.path)?.mode, 0o600)
    }

    /// Whether someone holds the data directory's own `flock` (tried from a new descriptor, until `limit`).
    private func directoryLockIsHeld(within limit: Duration) -> Bool {
        let fd = open(dataDirectory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(fd) }
        let deadline = ContinuousClock.now + limit
        repeat {
            if flock(fd, LOCK_EX | LOCK_NB) != 0 { return true }
            flock(fd, LOCK_UN)
            usleep(5_000)
        } while ContinuousClock.now < deadline
        return false
    }

    /// The same for the PIN file's directory (a fixed 10 s), and for the lock itself with a short bound.
    func testAPINDirectoryLockHeldForeverGivesBusy() throws {
        let keychain = try Keychain(location: location, options: options)
        let authenticator = try PINAuthenticator(
            keychain: location, parameters: .insecureForTestingOnly, prompt: { _ in "1234" })
        try authenticator.setPIN("1234", in: keychain)
        let directory = authenticator.fileURL.deletingLastPathComponent()
        let holder = try LockHolder(holding: directory.appendingPathComponent("directory.lock"))
        defer { holder.stop() }
        let started = ContinuousClock.now
        XCTAssertKeychainError(.busy, try authenticator.verify("1234"))
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(20))
        let short = ContinuousClock.now
        XCTAssertKeychainError(
            .busy,
            try PlatformIO.withExclusiveLock(onDirectory: directory, waitingAtMost: .milliseconds(200)) {
                () throws(KeychainError) in
            })
        XCTAssertLessThan(ContinuousClock.now - short, .seconds(2))
        holder.stop()
        XCTAssertTrue(try authenticator.verify("1234"))
    }

    // MARK: - Special files

    /// A FIFO in place of the device key or the database: a clear error at once (reading or
    /// opening a FIFO would wait for a writer for ever).
    func testAFIFOInPlaceOfAKeyFileGivesAClearErrorQuickly() throws {
        _ = try Keychain(location: location, options: options)
        for victim in [location.deviceKeyURL, location.databaseURL] {
            let saved = victim.appendingPathExtension("saved")
            try FileManager.default.moveItem(at: victim, to: saved)
            XCTAssertEqual(mkfifo(victim.path, 0o600), 0)
            let (location, options) = (location!, options)
            let outcome = try runWithin(.seconds(10), unblocking: victim.path) {
                _ = try Keychain(location: location, options: options)
            }
            XCTAssertEqual((outcome as? KeychainError)?.code, .keychainUnavailable, "\(String(describing: outcome))")
            XCTAssertTrue(
                (outcome as? KeychainError)?.message.contains("not a regular file") ?? false,
                "\(String(describing: outcome))")
            try FileManager.default.removeItem(at: victim)
            try FileManager.default.moveItem(at: saved, to: victim)
        }
        XCTAssertNoThrow(try Keychain(location: location, options: options))
    }

    /// Runs `body` on another thread; returns its error (or `nil`), failing the test if it has not
    /// returned within `limit` (a FIFO reader is then released so that the thread ends).
    private func runWithin(_ limit: Duration, unblocking fifo: String, _ body: @escaping @Sendable () throws -> Void)
        throws -> (any Error)?
    {
        let result = Outcome()
        Thread.detachNewThread {
            do {
                try body()
                result.finish(nil)
            } catch { result.finish(error) }
        }
        guard let error = result.wait(limit) else {
            XCTFail("still blocked after \(limit): a FIFO made the keychain hang")
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            return nil
        }
        return error.error
    }

    // MARK: - Secret files are private from their first byte

    /// With a umask of 0, a racing observer sees every file the keychain creates — device key,
    /// database, anchor, PIN file, unlock ticket, backups — as 0600 from the moment it exists.
    func testSecretFilesAreNeverVisibleToOthersWhileTheyAreWritten() throws {
        let exports = home.appendingPathComponent("exports")
        try FileManager.default.createDirectory(
            at: exports, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let watcher = ModeWatcher(directories: [
            home.path, dataDirectory.path, stateDirectory.path, stateDirectory.path + "/authenticator",
            runtimeBase.path + "/secure-storage", exports.path
        ])
        let previous = umask(0)
        defer { umask(previous) }
        for round in 0..<6 {
            let keychain = try Keychain(location: location, options: options)
            if round == 0 { try keychain.setPassphrase("p") }
            try keychain.unlock(passphrase: "p", keepingSessionFor: .seconds(60))
            try keychain.add(password("svc", "acct-\(round)"))
            try keychain.exportBackup(to: exports.appendingPathComponent("backup-\(round)"), passphrase: "b")
            try keychain.exportBackup(
                to: exports.appendingPathComponent("backup-\(round)"), passphrase: "b", replacingExisting: true)
            let authenticator = try PINAuthenticator(
                keychain: location, parameters: .insecureForTestingOnly, prompt: { _ in nil })
            try authenticator.setPIN("pin-\(round)", current: round == 0 ? nil : "pin-\(round - 1)", in: keychain)
        }
        let seen = watcher.stop()
        XCTAssertGreaterThan(seen.files, 10, "the watcher saw the files being made")
        XCTAssertEqual(seen.exposed, [], "files other users could open at some moment")
        for file in [
            location.deviceKeyURL.path, location.databaseURL.path, PINAuthenticator.fileURL(for: location).path
        ] {
            XCTAssertEqual(PlatformIO.ownerAndMode(of: file)?.mode, 0o600, file)
        }
    }

    /// A backup written into a shared directory where the attacker planted the name first (a
    /// file of theirs, or a link to one): nothing is ever written into the attacker's file, and
    /// what the keychain writes is never readable by them.
    func testABackupIsNeverWrittenIntoAnotherUsersFile() throws {
        let attacker = try AnotherUser.required()
        let drop = home.appendingPathComponent("drop")
        try FileManager.default.createDirectory(at: drop, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(drop.path, 0o1777), 0)
        let keychain = try Keychain(location: location, options: options)
        try keychain.add(password("svc", "acct", "backup-canary-secret"))
        let planted = drop.appendingPathComponent("keychain.backup")
        let loot = drop.appendingPathComponent("loot")
        try attacker.write(loot, "trap", mode: 0o666)
        for trap in ["file", "link"] {
            try? FileManager.default.removeItem(at: planted)
            if trap == "file" {
                try attacker.write(planted, "trap", mode: 0o666)
            } else {
                try attacker.symlink(planted, to: loot)
            }
            // the attacker's own file, kept open
            let held = try FileHandle(forReadingFrom: trap == "file" ? planted : loot)
            XCTAssertKeychainError(
                .invalidParameter, try keychain.exportBackup(to: planted, passphrase: "b"),
                "\(trap): not replaced unasked")
            let refusal: KeychainError?
            do {
                try keychain.exportBackup(to: planted, passphrase: "b", replacingExisting: true)
                refusal = nil
            } catch { refusal = error }
            if let refusal {
                XCTAssertNotEqual(getuid(), 0, "root may replace the name")
                XCTAssertTrue(refusal.message.contains("belongs to another user"), refusal.message)
            } else {
                // Root may replace a name in a sticky directory: the name now holds a new file of ours.
                XCTAssertEqual(PlatformIO.ownerAndMode(of: planted.path)?.owner, PlatformIO.currentUserID)
                XCTAssertEqual(PlatformIO.ownerAndMode(of: planted.path)?.mode, 0o600)
                XCTAssertFalse(try attacker.canRead(planted), "\(trap): the attacker cannot read the backup")
            }
            XCTAssertEqual(
                String(decoding: held.readDataToEndOfFile(), as: UTF8.self), "trap",
                "\(trap): nothing was written into the attacker's file")
            try held.close()
            XCTAssertEqual(String(decoding: try Data(contentsOf: loot), as: UTF8.self), "trap")
        }
        XCTAssertEqual(contents(drop).filter { $0.contains(".tmp-") }, [], "no temporary file left behind")
    }
}

// MARK: - Tools

/// Another process holding an exclusive `flock` on a file or directory until stopped (`flock
/// --no-fork PATH sleep`, so the process that is killed is the one that holds the lock).
final class LockHolder {
    private let process = Process()

    init(holding directory: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        guard
            let tool = ["/usr/bin/flock", "/bin/flock"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            let message = "the flock tool (util-linux) is needed to hold a lock from another process"
            if ProcessInfo.processInfo.environment["REQUIRE_TEST_EXECUTABLES"] != nil {
                XCTFail(message, file: file, line: line)
                throw CocoaError(.featureUnsupported)
            }
            throw XCTSkip(message)
        }
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--no-fork", "--exclusive", directory.path, "sleep", "120"]
        try process.run()
        // Wait until the lock is really held by the other process.
        let fd = open(directory.path, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if flock(fd, LOCK_EX | LOCK_NB) != 0 { return }
            flock(fd, LOCK_UN)
            usleep(5_000)
        }
        stop()
        XCTFail("the other process never took the lock", file: file, line: line)
        throw CocoaError(.featureUnsupported)
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

/// The result of work on another thread, awaited with a limit.
private final class Outcome: @unchecked Sendable {
    struct Finished { var error: (any Error)? }
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var value: Finished?

    func finish(_ error: (any Error)?) {
        lock.withLock { value = Finished(error: error) }
        done.signal()
    }

    func wait(_ limit: Duration) -> Finished? {
        let milliseconds = Int(limit.components.seconds * 1000)
        guard done.wait(timeout: .now() + .milliseconds(milliseconds)) == .success else { return nil }
        return lock.withLock { value }
    }
}

/// Watches directories from another thread and records every file that was, at some moment,
/// open to the group or to others (what another user racing the writer could have opened).
private final class ModeWatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var exposed: Set<String> = []
    private var files: Set<String> = []
    private let finished = DispatchSemaphore(value: 0)

    init(directories: [String]) {
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                for directory in directories {
                    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
                        var info = stat()
                        let path = directory + "/" + name
                        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                        lock.withLock {
                            files.insert(path)
                            if info.st_mode & 0o077 != 0 {
                                exposed.insert("\(path) (mode \(String(info.st_mode & 0o7777, radix: 8)))")
                            }
                        }
                    }
                }
            }
            finished.signal()
        }
    }

    /// Stops watching; returns how many files were seen and the exposed ones.
    func stop() -> (files: Int, exposed: [String]) {
        lock.withLock { running = false }
        finished.wait()
        return lock.withLock { (files.count, exposed.sorted()) }
    }
}
