#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import KeychainServices
import SecureStorage
import XCTest

/// A service unlocks and locks through the facade, from a passphrase file, with the errors the
/// facade's callers handle.
final class ServiceUnlockTests: StorageTestCase {
    func testAServiceUnlocksFromAFileAndLocks() throws {
        try storage.set("pa55", for: "db")
        try lockWithPassphrase()
        XCTAssertFalse(SecureStorage.isUnlocked)
        XCTAssertThrowsError(try storage.string(for: "db")) { XCTAssertEqual($0 as? SecureStorageError, .locked) }

        let file = directory.appendingPathComponent("passphrase")
        try Data("device passcode\n".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        XCTAssertThrowsError(try SecureStorage.unlock(from: .file(file)), "readable by others") { error in
            XCTAssertEqual((error as? SecureStorageError)?.status, KeychainError.Code.keychainUnavailable.osStatus)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        try SecureStorage.unlock(from: .file(file))
        XCTAssertTrue(SecureStorage.isUnlocked)
        XCTAssertEqual(try storage.string(for: "db"), "pa55")

        try SecureStorage.lock()
        XCTAssertThrowsError(try storage.string(for: "db")) { XCTAssertEqual($0 as? SecureStorageError, .locked) }
        XCTAssertThrowsError(try SecureStorage.unlock(passphrase: "wrong")) {
            XCTAssertEqual($0 as? SecureStorageError, .authenticationFailed)
        }
        try SecureStorage.unlock(passphrase: "device passcode")
        XCTAssertEqual(try storage.string(for: "db"), "pa55")
    }
}
#endif

#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
/// The facade's `async` calls, many at once.
final class AsyncStorageTests: StorageTestCase {
    func testConcurrentAsyncReadsAfterAnAsyncUnlock() async throws {
        for index in 0..<20 { try storage.set("value-\(index)", for: "key-\(index)") }
        try lockWithPassphrase()
        try await SecureStorage.unlock(passphrase: "device passcode")
        let storage = self.storage!
        let values = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for round in 0..<200 { group.addTask { (round % 20, try await storage.string(for: "key-\(round % 20)")) } }
            var values: [(Int, String?)] = []
            for try await value in group { values.append(value) }
            return values
        }
        XCTAssertEqual(values.count, 200)
        for (index, value) in values { XCTAssertEqual(value, "value-\(index)") }
        let missing: String? = try await storage.string(for: "absent")
        XCTAssertNil(missing)
    }
}
#endif
