#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorage
import XCTest

/// Links, FIFOs, odd files and modes in the store, concurrent writers, and a reader or
/// writer shared by threads.
final class ProtectedFileSystemAttackTests: ProtectedFilesTestCase {
    func testLinksFifosOddFilesAndModesAreRefused() throws {
        try files.write(pattern(200_000), to: "f", protection: .complete)
        XCTAssertEqual(link(path("f"), directory.appendingPathComponent("outside").path), 0)
        XCTAssertStorageError(.insecureFile, try files.read("f"), "a second hard link")
        XCTAssertStorageError(.insecureFile, try files.protection(of: "f"))
        unlink(directory.appendingPathComponent("outside").path)
        XCTAssertEqual(symlink(path("f"), path("l")), 0)
        XCTAssertStorageError(.insecureFile, try files.read("l"), "a symbolic link")
        XCTAssertEqual(mkfifo(path("p"), 0o600), 0)
        XCTAssertStorageError(.insecureFile, try files.read("p"), "a FIFO, without waiting for a writer")
        XCTAssertStorageError(.insecureFile, try files.move("p", to: "q"))
        try setRawBytes(Data(), of: "z")
        XCTAssertStorageError(.integrityViolation, try files.read("z"), "an empty file")
        try setRawBytes(try rawBytes("f").prefix(152), of: "h")
        XCTAssertStorageError(.integrityViolation, try files.read("h"), "a header alone")
        // A sparse 1 TiB extension fails at the chunk where it shows, without reading a terabyte.
        XCTAssertEqual(truncate(path("f"), 1 << 40), 0)
        XCTAssertStorageError(.integrityViolation, try files.read("f"))
        try files.write(Data("m".utf8), to: "m", protection: .none)
        chmod(path("m"), 0o644)
        XCTAssertStorageError(.insecureFile, try files.read("m"), "a file others may read")
    }

    func testALinkedOrOpenStoreDirectoryIsRefused() throws {
        let linked = directory.appendingPathComponent("linked")
        XCTAssertEqual(symlink(filesDirectory.path, linked.path), 0)
        XCTAssertStorageError(.insecureFile, try ProtectedFiles(directory: linked))
        chmod(filesDirectory.path, 0o750)
        XCTAssertStorageError(.insecureFile, try ProtectedFiles(directory: filesDirectory))
        chmod(filesDirectory.path, 0o700)
        XCTAssertNoThrow(try ProtectedFiles(directory: filesDirectory))
    }

    /// Opening a store sweeps abandoned temporaries; a writer between creating its temporary and
    /// locking it is never swept away.
    func testTheSweepNeverTakesALiveWritersFile() throws {
        let stop = Flag()
        let store = filesDirectory!
        let sweeper = Thread {
            while !stop.isSet { _ = try? ProtectedFiles(directory: store) }
        }
        sweeper.start()
        var failures: [String] = []
        for index in 0..<2_000 {
            do { try files.write(Data("x".utf8), to: "f\(index % 4)", protection: .none) } catch {
                failures.append("\(error)")
            }
        }
        stop.set()
        XCTAssertEqual(failures, [])
    }

    func testConcurrentWritersOfOneNameLeaveOneWholeVersion() throws {
        let other = try ProtectedFiles(directory: filesDirectory)
        let first = files!
        let versions = [pattern(150_000, seed: 1), pattern(150_000, seed: 2)]
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            let store = index % 2 == 0 ? first : other
            try? store.write(versions[index % 2], to: "same", protection: .completeUntilFirstUserAuthentication)
        }
        XCTAssertTrue(versions.contains(try files.read("same")))
        XCTAssertEqual(try temporaries(), [])
    }

    func testAReaderAndAWriterSharedByThreadsLoseNothing() throws {
        let writer = try files.create("t", protection: .none)
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            try? writer.write(Data(repeating: UInt8(index), count: 10_000))
        }
        try writer.commit()
        let reader = try files.open("t")
        let total = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            while let piece = try? reader.read(upToCount: 3_333) { total.add(piece.count) }
        }
        XCTAssertEqual(total.value, 640_000)
    }

    /// A zero count reads nothing but still ends with nil; a closed reader fails.
    func testReadCountsOfZeroAndBelow() throws {
        try files.write(Data("0123456789".utf8), to: "f", protection: .none)
        let reader = try files.open("f")
        XCTAssertEqual(try reader.read(upToCount: 0), Data())
        XCTAssertEqual(try reader.read(upToCount: -5), Data())
        XCTAssertEqual(try reader.readToEnd(), Data("0123456789".utf8))
        XCTAssertNil(try reader.read(upToCount: 0), "at the end")
        reader.close()
        XCTAssertStorageError(.underlying(errSecParam), try reader.read(upToCount: 0), "after close")
        XCTAssertStorageError(.underlying(errSecParam), try reader.read(upToCount: 10), "after close")
    }
}

private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return total
    }
    func add(_ count: Int) {
        lock.lock()
        total += count
        lock.unlock()
    }
}
#endif
