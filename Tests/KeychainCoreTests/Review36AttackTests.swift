import Foundation
@testable import KeychainCore
import SecureStorageFoundation
import XCTest

/// Review of the i36 restructuring: the helpers merged into SecureStorageFoundation (the byte
/// codec, secret file creation, the lock file), attacked directly.
final class Review36AttackTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = URL(fileURLWithPath: "/tmp/r36-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - (1) The byte codec

    private func be32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }

    /// Lengths that overflow, exceed the input or Int32, and nested lengths that claim more than
    /// the outer field: every read is nil, nothing past the end, no trap.
    func testHostileLengthPrefixesAreRefusedWithoutReadingPastTheEnd() {
        for claimed in [UInt32.max, UInt32(Int32.max), UInt32(Int32.max) + 1, 5, 4] {
            var reader = ByteReader(Data(be32(claimed) + [1, 2, 3]))
            XCTAssertNil(reader.readLengthPrefixed(), "claims \(claimed) of 3 bytes")
            var textReader = ByteReader(Data(be32(claimed) + [0x41, 0x42, 0x43]))
            XCTAssertNil(textReader.readLengthPrefixedText(), "claims \(claimed) of 3 bytes")
        }
        var exact = ByteReader(Data(be32(3) + [1, 2, 3]))
        XCTAssertEqual(exact.readLengthPrefixed(), Data([1, 2, 3]))
        XCTAssertTrue(exact.isAtEnd)
        XCTAssertNil(exact.readLengthPrefixed())
        XCTAssertNil(exact.readByte())
        // A nested field claiming more than its outer field holds.
        var outer = ByteReader(Data(be32(8) + be32(100) + [1, 2, 3, 4]))
        let inner = outer.readLengthPrefixed()
        XCTAssertEqual(inner?.count, 8)
        var nested = ByteReader(inner ?? Data())
        XCTAssertNil(nested.readLengthPrefixed())
        // Negative and huge counts.
        var reader = ByteReader(Data([1, 2, 3]))
        XCTAssertNil(reader.readBytes(-1))
        XCTAssertNil(reader.readBytes(Int.max))
        XCTAssertNil(reader.readBytes(Int.min))
        XCTAssertEqual(reader.readBytes(3), Data([1, 2, 3]))
        XCTAssertEqual(reader.readRemaining(), Data())
        XCTAssertNil(reader.readBigEndian(UInt64.self))
        // Fields are Data indexed from zero (the old sync reader returned slices of the input).
        var sliced = ByteReader(Data([9, 9]) + be32(2) + [7, 8])
        _ = sliced.readBytes(2)
        let field = sliced.readLengthPrefixed()
        XCTAssertEqual(field?.startIndex, 0)
        XCTAssertEqual(field?.first, 7)
    }

    /// Text fields are refused unless they are valid UTF-8, as `String(validating:)` (the old
    /// core reader) refused them: overlong forms, surrogates, code points past U+10FFFF,
    /// truncated sequences, stray continuation bytes.
    func testTextFieldsRefuseEveryInvalidUTF8Form() {
        let invalid: [[UInt8]] = [
            [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xF0, 0x80, 0x80, 0x80],  // overlong
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // surrogates
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE],  // out of range
            [0xE2, 0x82], [0x41, 0xE2], [0x80], [0x41, 0xBF, 0x42]  // truncated, stray
        ]
        for bytes in invalid {
            var reader = ByteReader(Data(be32(UInt32(bytes.count)) + bytes))
            XCTAssertNil(reader.readLengthPrefixedText(), "\(bytes.map { String(format: "%02x", $0) })")
            XCTAssertNil(String(validating: bytes, as: UTF8.self))
        }
        let valid: [UInt8] = Array("añ€😀\u{0}".utf8)
        var reader = ByteReader(Data(be32(UInt32(valid.count)) + valid))
        XCTAssertEqual(reader.readLengthPrefixedText(), "añ€😀\u{0}")
    }

    /// The writer and the reader agree on every width, and the writer's length never wraps
    /// silently (a field of 4 GiB or more cannot be written: `UInt32(count)` traps instead of
    /// writing a short length that would make the reader read another field's bytes as this one).
    func testWriterAndReaderRoundTrip() {
        var writer = ByteWriter()
        writer.append(bigEndian: UInt8(0xAB))
        writer.append(bigEndian: UInt16(0x0102))
        writer.append(bigEndian: UInt32(0x0304_0506))
        writer.append(bigEndian: UInt64(0x0708_090A_0B0C_0D0E))
        writer.append(bigEndian: Int64(-2))
        writer.appendLengthPrefixed(Data([1, 2]))
        writer.appendLengthPrefixed("ü")
        var reader = ByteReader(writer.data)
        XCTAssertEqual(reader.readByte(), 0xAB)
        XCTAssertEqual(reader.readBigEndian(UInt16.self), 0x0102)
        XCTAssertEqual(reader.readBigEndian(UInt32.self), 0x0304_0506)
        XCTAssertEqual(reader.readBigEndian(UInt64.self), 0x0708_090A_0B0C_0D0E)
        XCTAssertEqual(reader.readBigEndian(Int64.self), -2)
        XCTAssertEqual(reader.readLengthPrefixed(), Data([1, 2]))
        XCTAssertEqual(reader.readLengthPrefixedText(), "ü")
        XCTAssertTrue(reader.isAtEnd)
        writer.wipe()
        XCTAssertTrue(writer.data.allSatisfy { $0 == 0 })
    }

    // MARK: - (3) Secret files and lock files, against a second user

    /// Runs `script` with /bin/sh as uid/gid 65534.
    @discardableResult
    private func asNobody(_ script: String, wait: Bool = true) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", script]
        try process.run()
        if wait { process.waitUntilExit() }
        return process
    }

    private func sharedStickyDirectory() throws -> String {
        let shared = directory.appendingPathComponent("shared").path
        XCTAssertEqual(mkdir(shared, 0o777), 0)
        XCTAssertEqual(chmod(shared, 0o1777), 0)
        XCTAssertEqual(chmod(directory.path, 0o755), 0)
        return shared
    }

    /// Another user plants a symbolic link, a FIFO or a file of their own under the name: the
    /// name is taken, nothing is followed, opened or written, and the link's target is unchanged.
    func testPlantedNamesInASharedStickyDirectoryAreNeverOpened() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root for a second user") }
        let shared = try sharedStickyDirectory()
        let target = directory.appendingPathComponent("root-target").path
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: target))
        try asNobody(
            "ln -s \(target) \(shared)/link; mkfifo \(shared)/fifo; touch \(shared)/file; chmod 666 \(shared)/file")
        for name in ["link", "fifo", "file"] {
            XCTAssertThrowsError(try SecretFile.create("\(shared)/\(name)")) { error in
                XCTAssertEqual(error as? SecretFileCreationFailure, .nameTaken, name)
            }
        }
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "untouched")
    }

    /// A second user races the creation: while this process creates, checks and removes a
    /// secret file under one name again and again, the other user tries to plant a symbolic
    /// link to a file of this user at that name and to hard-link the new file away. Every
    /// descriptor returned is a private regular file of this user with one link, and the link
    /// target is never written.
    func testARaceWithASecondUserNeverYieldsAFileTheyCanReach() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root for a second user") }
        let shared = try sharedStickyDirectory()
        let target = directory.appendingPathComponent("root-target").path
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: target))
        let name = "\(shared)/secret"
        let racer = try asNobody(
            "end=$(($(date +%s)+4)); while [ $(date +%s) -lt $end ]; do ln -s \(target) \(name) 2>/dev/null; ln \(name) \(shared)/stolen-$$ 2>/dev/null; rm -f \(name) 2>/dev/null; done",
            wait: false)
        var created = 0
        var taken = 0
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            do {
                let fd = try SecretFile.create(name)
                created += 1
                var info = stat()
                XCTAssertEqual(fstat(fd, &info), 0)
                XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG)
                XCTAssertEqual(info.st_mode & 0o7777, 0o600)
                XCTAssertEqual(info.st_uid, 0)
                XCTAssertEqual(info.st_nlink, 1)
                XCTAssertEqual(SecretFile.writeAll(Data("secret".utf8), to: fd), 0)
                close(fd)
                unlink(name)
            } catch SecretFileCreationFailure.nameTaken {
                taken += 1
            } catch {
                // notPrivate (a link appeared) is a refusal too; nothing was written.
            }
        }
        racer.waitUntilExit()
        print("Review36 race: \(created) created, \(taken) taken")
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "untouched")
        let stolen = try FileManager.default.contentsOfDirectory(atPath: shared).filter { $0.hasPrefix("stolen-") }
        for file in stolen {
            var info = stat()
            XCTAssertEqual(lstat("\(shared)/\(file)", &info), 0)
            // Links of their own symbolic link are fine; a link to a secret file of this user is not.
            XCTAssertFalse(
                info.st_mode & S_IFMT == S_IFREG && info.st_uid == 0,
                "the other user hard-linked a secret file away: \(file)")
        }
    }

    /// Lock files: a symbolic link, a FIFO, another user's file, and a file of this user that
    /// others may read are all refused (the sync lock used to take the last one), without hanging.
    func testLockFilesThatAreNotPrivateRegularFilesAreRefused() throws {
        let path = directory.path
        let fd = try LockFile.openDirectory(path)
        defer { close(fd) }
        XCTAssertEqual(symlink("/etc/passwd", path + "/link.lock"), 0)
        XCTAssertEqual(mkfifo(path + "/fifo.lock", 0o600), 0)
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: path + "/loose.lock", contents: nil, attributes: [.posixPermissions: 0o644]))
        XCTAssertThrowsError(try LockFile("link.lock", in: fd, path: "link")) {
            XCTAssertEqual($0 as? LockFileFailure, .symbolicLink)
        }
        XCTAssertThrowsError(try LockFile("fifo.lock", in: fd, path: "fifo")) {
            guard case .notPrivate? = $0 as? LockFileFailure else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try LockFile("loose.lock", in: fd, path: "loose")) {
            guard case .notPrivate? = $0 as? LockFileFailure else { return XCTFail("\($0)") }
        }
        if geteuid() == 0 {
            XCTAssertTrue(
                FileManager.default.createFile(
                    atPath: path + "/theirs.lock", contents: nil, attributes: [.posixPermissions: 0o600]))
            XCTAssertEqual(chown(path + "/theirs.lock", 65534, 65534), 0)
            XCTAssertThrowsError(try LockFile("theirs.lock", in: fd, path: "theirs")) {
                guard case .notPrivate? = $0 as? LockFileFailure else { return XCTFail("\($0)") }
            }
        }
        // A directory that is a symbolic link is not followed.
        XCTAssertEqual(symlink(path, path + "-alias"), 0)
        defer { unlink(path + "-alias") }
        XCTAssertThrowsError(try LockFile.openDirectory(path + "-alias"))
        // Created fresh: 0600, this user's, and a held lock times out instead of hanging.
        let lock = try LockFile("fresh.lock", in: fd, path: "fresh")
        try lock.lockExclusively(waitingAtMost: .seconds(1))
        let second = try LockFile("fresh.lock", in: fd, path: "fresh")
        let start = Date()
        XCTAssertThrowsError(try second.lockExclusively(waitingAtMost: .milliseconds(200))) {
            XCTAssertEqual($0 as? LockFileFailure, .timedOut)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        second.unlockAndClose()
        lock.unlockAndClose()
        var info = stat()
        XCTAssertEqual(stat(path + "/fresh.lock", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
    }
}
