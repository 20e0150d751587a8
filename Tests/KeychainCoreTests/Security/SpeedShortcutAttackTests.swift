import Crypto
import Foundation
import GRDB
import XCTest
@_spi(Testing) @testable import KeychainCore

/// Attacks on the shortcuts taken for speed: the access-group index cache, batches sealed on
/// several cores, and the checkpoint a read-only instance finishes when it goes.
final class SpeedShortcutAttackTests: XCTestCase {
    private var scratch: ScratchLocation!
    private var location: KeychainLocation { scratch.location }
    private var options = KeychainOptions(
        passphraseHardening: .fixed(.insecureForTestingOnly), busyTimeout: .milliseconds(300),
        defaultAccessGroup: "TEAM.test.app", tpm: nil)

    override func setUpWithError() throws { scratch = ScratchLocation("kc-shortcut-attack") }
    override func tearDownWithError() throws { scratch.remove() }

    // MARK: 1. Access-group index cache

    /// Swift `String` equality is canonical equivalence: "é" (U+00E9) == "e\u{301}". A cache keyed
    /// by `String` would give the second spelling the first one's index, while the index itself
    /// (and every other comparison, `canonicallyEqual`) works on the UTF-8 bytes.
    func testGroupIndexCacheIsKeyedByBytesNotCanonicalEquivalence() throws {
        let nfc = "TEAM.caf\u{E9}"
        let nfd = "TEAM.cafe\u{301}"
        XCTAssertEqual(nfc, nfd)  // Swift says equal
        XCTAssertNotEqual(Array(nfc.utf8), Array(nfd.utf8))  // the bytes differ
        let indexer = BlindIndexer(key: .init(size: .bits256))
        let uncachedNFD = indexer.attribute(.accessGroup, .string(nfd))
        _ = indexer.accessGroup(nfc)  // caches the NFC spelling
        XCTAssertEqual(indexer.accessGroup(nfd), uncachedNFD, "the cache returned another group's index")
    }

    /// End to end: an item added under the NFD spelling of a group after the NFC spelling was
    /// seen must still be found by another instance (empty cache) under its own group.
    func testItemAddedAfterCanonicallyEqualGroupIsFoundByAnotherInstance() throws {
        let nfc = "TEAM.caf\u{E9}"
        let nfd = "TEAM.cafe\u{301}"
        do {
            let keychain = try Keychain(location: location, options: options)
            try keychain.add(password("svc", "a", extra: [.accessGroup: .string(nfc)]))
            try keychain.add(password("svc", "b", extra: [.accessGroup: .string(nfd)]))
        }
        let fresh = try Keychain(location: location, options: options)
        var byNFD = query("svc", "b")
        byNFD.accessGroups = [nfd]
        XCTAssertEqual(
            try fresh.find(byNFD, returning: .attributes).count, 1,
            "the item of group \(nfd.debugDescription) is not found under its own group")
    }

    // MARK: 2. Batch add

    /// Items are sealed first, all of them, then stored: an item that cannot be sealed late in
    /// the batch must not win over a duplicate earlier in it. The error is the first failing
    /// item's, as a sequential loop would report it: the duplicate.
    func testBatchReportsTheFirstFailingItemsError() throws {
        let keychain = try Keychain(location: location, options: options)  // no passphrase
        try keychain.add(password("svc", "taken"))
        let batch = [
            password("svc", "fresh-0"), password("svc", "taken"), password("svc", "fresh-1"),
            password("svc", "needs-passcode", "x", .whenPasscodeSetThisDeviceOnly)
        ]
        XCTAssertKeychainError(.duplicateItem, try keychain.add(contentsOf: batch), "item 1 is the first failing item")
        XCTAssertEqual(try keychain.find(query("svc"), returning: .attributes).count, 1)
        XCTAssertTrue(try keychain.verify().isClean)
    }

    /// A large (parallel) batch with a duplicate inside it: nothing stored, digest exact; then a
    /// clean one: consecutive row ids in order, distinct item ids and wrapped keys.
    func testLargeParallelBatchAllOrNothingAndOrdered() throws {
        let keychain = try Keychain(location: location, options: options)
        var items = (0..<700).map { password("bulk", "acct-\($0)", "secret-\($0)") }
        items[650] = password("bulk", "acct-3", "dup")
        XCTAssertKeychainError(.duplicateItem, try keychain.add(contentsOf: items))
        XCTAssertKeychainError(.itemNotFound, try keychain.find(query("bulk"), returning: .attributes))
        XCTAssertTrue(try keychain.verify().isClean)
        items[650] = password("bulk", "acct-650", "secret-650")
        XCTAssertEqual(try keychain.add(contentsOf: items), 700)
        XCTAssertTrue(try keychain.verify().isClean)
        let rows = try keychain.read { db in
            try Row.fetchAll(db, sql: "SELECT id, item_id, secret_key FROM items ORDER BY id")
        }
        XCTAssertEqual(rows.map { $0["id"] as Int64 }, Array(1...700))
        XCTAssertEqual(Set(rows.map { $0["item_id"] as Data }).count, 700)
        XCTAssertEqual(Set(rows.map { $0["secret_key"] as Data }).count, 700)
        for index in [0, 255, 256, 699] {
            let found = try keychain.find(query("bulk", "acct-\(index)"), returning: [.data]).first
            XCTAssertEqual(found?.data, Data("secret-\(index)".utf8))
        }
    }

    /// Two instances adding big batches at once: both succeed (or one is busy), nothing mixes.
    func testConcurrentBatchesFromTwoInstances() throws {
        _ = try Keychain(location: location, options: options)
        var slow = options
        slow.busyTimeout = .seconds(20)
        let first = try Keychain(location: location, options: slow)
        let second = try Keychain(location: location, options: slow)
        let group = DispatchGroup()
        let lock = NSLock()
        nonisolated(unsafe) var failures: [Error] = []
        for (name, keychain) in [("one", first), ("two", second)] {
            group.enter()
            Thread.detachNewThread {
                do {
                    try keychain.add(contentsOf: (0..<600).map { password(name, "acct-\($0)", "\(name)-\($0)") })
                } catch {
                    lock.lock()
                    failures.append(error)
                    lock.unlock()
                }
                group.leave()
            }
        }
        group.wait()
        XCTAssertEqual(failures.count, 0, "\(failures)")
        XCTAssertTrue(try first.verify().isClean)
        XCTAssertEqual(try first.find(query("two", "acct-599"), returning: .data).first?.data, Data("two-599".utf8))
    }

    // MARK: 4. Read-only checkpoint at deinit

    /// A read-only instance released while the log holds frames and a reader (another instance,
    /// here in the same process) holds a snapshot: its checkpoint cannot finish, and it must not
    /// wait for the busy timeout on whatever thread releases the instance.
    func testReleasingAReadOnlyInstanceNeverWaitsForAReader() throws {
        var slow = options
        slow.busyTimeout = .seconds(3)
        let writer = try Keychain(location: location, options: slow)
        try writer.add(password("svc", "a"))
        let walSize =
            (try FileManager.default.attributesOfItem(atPath: location.databaseURL.path + "-wal")[.size] as? Int) ?? 0
        XCTAssertGreaterThan(walSize, 0, "the writer's log holds frames")
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? writer.read { db -> Int in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items") ?? 0
                started.signal()
                release.wait()
                return count
            }
            done.signal()
        }
        started.wait()
        try writer.add(password("svc", "b"))  // frames beyond the reader's snapshot
        var readOnly = slow
        readOnly.readOnly = true
        var reader: Keychain? = try Keychain(location: location, options: readOnly)
        XCTAssertEqual(try reader!.find(query("svc"), returning: .attributes).count, 2)
        let before = Date()
        reader = nil
        let elapsed = Date().timeIntervalSince(before)
        release.signal()
        done.wait()
        XCTAssertLessThan(elapsed, 1.0, "releasing a read-only instance blocked \(elapsed) s")
    }
}
