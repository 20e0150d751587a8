import Foundation
import SecureStorageFoundation
import XCTest
@testable import KeychainCore

/// Several instances (as several processes would) and many threads on one file lose nothing.
final class ConcurrencyTests: XCTestCase {
    func testTwoInstancesWritingConcurrentlyLoseNothing() throws {
        let test = try TestKeychain()
        let instances = [test.keychain, try test.openAnother()]
        let perThread = 25
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            let keychain = instances[thread % 2]
            for index in 0..<perThread {
                do {
                    try keychain.add(password("concurrent", "t\(thread)-\(index)", "v\(thread)-\(index)"))
                    try keychain.update(
                        query("concurrent", "t\(thread)-\(index)"),
                        with: ItemChanges(data: Data("u\(thread)-\(index)".utf8)))
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let reopened = try test.openAnother()
        let all = try reopened.find(query("concurrent"), returning: [.attributes, .data])
        XCTAssertEqual(all.count, 8 * perThread)
        for item in all {
            let account = try XCTUnwrap(item.attributes[.account]?.stringValue)
            XCTAssertEqual(item.data, Data(("u" + account.dropFirst()).utf8))
        }
    }

    func testConcurrentAddsOfTheSameItemCreateExactlyOne() throws {
        let test = try TestKeychain()
        let instances = [test.keychain, try test.openAnother(), try test.openAnother()]
        let outcomes = Locked<[KeychainError.Code?]>([])
        DispatchQueue.concurrentPerform(iterations: 12) { thread in
            do {
                try instances[thread % 3].add(password("race", "same", "t\(thread)"))
                outcomes.withLock { $0.append(nil) }
            } catch {
                outcomes.withLock { $0.append((error as? KeychainError)?.code) }
            }
        }
        let results = outcomes.withLock { $0 }
        XCTAssertEqual(results.filter { $0 == nil }.count, 1)
        XCTAssertEqual(results.filter { $0 == .duplicateItem }.count, 11)
    }

    func testConcurrentFirstOpenCreatesOneKeychain() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-open-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let vaults = Locked<Set<UUID>>([])
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                let keychain = try Keychain(location: KeychainLocation(directory: directory))
                vaults.withLock { _ = $0.insert(keychain.vaultID) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        XCTAssertEqual(vaults.withLock { $0.count }, 1)
    }
}
