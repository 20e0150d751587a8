import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// The watcher that wakes background sync on a local write: at once, and never without a change.
final class KeychainDirectoryWatcherTests: XCTestCase {
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() {
            lock.lock()
            value += 1
            lock.unlock()
        }
        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return value
        }
    }

    func testAWriteWakesItAndNothingElseDoes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("watcher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("keychain.db")
        try Data("one".utf8).write(to: database)
        let location = KeychainLocation(
            databaseURL: database, deviceKeyURL: directory.appendingPathComponent("device.key"))
        let wakeUps = Counter()
        let watcher = KeychainDirectoryWatcher(location) { wakeUps.increment() }
        defer { watcher.stop() }

        Thread.sleep(forTimeInterval: 1)
        #if os(Linux)
        XCTAssertEqual(wakeUps.count, 0, "inotify: no wake-up without a change (no polling)")
        #endif
        let stamp = KeychainFileStamp(location)
        let handle = try FileHandle(forWritingTo: database)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(" two".utf8))
        try handle.close()
        let deadline = Date().addingTimeInterval(5)
        while wakeUps.count == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertGreaterThan(wakeUps.count, 0, "the write woke it")
        XCTAssertNotEqual(KeychainFileStamp(location), stamp, "and the stamps tell the write")
    }
}
