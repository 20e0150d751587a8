import Foundation
import XCTest
@_spi(Testing) @testable import KeychainCore
import SecureStorageFoundation

/// Export writes an encrypted, authenticated backup without this-device-only items; import
/// restores it on a keychain with another device key; any damage is refused with nothing imported.
final class BackupTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("kc-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: scratch) }

    /// A keychain with every kind of item worth restoring, and two that must stay behind.
    private func populatedKeychain() throws -> TestKeychain {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("device passphrase")
        try test.keychain.add(
            password(
                "svc", "portable", "portable-secret", .afterFirstUnlock, extra: [.label: "Label", .comment: "note"]))
        try test.keychain.add(password("svc", "unlocked", "unlocked-secret", .whenUnlocked))
        try test.keychain.add(password("svc", "device-only", "device-secret", .whenUnlockedThisDeviceOnly))
        try test.keychain.add(password("svc", "passcode", "passcode-secret", .whenPasscodeSetThisDeviceOnly))
        try test.keychain.add(
            NewItem(
                .internetPassword, attributes: [.server: "example.com", .account: "bob", .protocol: "htps", .port: 443],
                data: Data("web-secret".utf8)))
        return test
    }

    private func secrets(in keychain: Keychain) throws -> [String: String] {
        var result: [String: String] = [:]
        for itemClass in [ItemClass.genericPassword, .internetPassword] {
            for item in try keychain.findAll(Query(itemClass, synchronizable: .any), returning: [.attributes, .data]) {
                result[item.attributes[.account]?.stringValue ?? "?"] = String(
                    decoding: item.data ?? Data(), as: UTF8.self)
            }
        }
        return result
    }

    func testRoundTripToAnotherDeviceKeyLeavesThisDeviceOnlyItemsBehind() throws {
        let source = try populatedKeychain()
        let file = scratch.appendingPathComponent("keychain.backup")
        var progress: [(Int, Int)] = []
        let exported = try source.keychain.exportBackup(to: file, passphrase: "backup pw") { progress.append(($0, $1)) }
        XCTAssertEqual(exported.exportedItems, 3)
        XCTAssertEqual(exported.skippedThisDeviceOnlyItems, 2)
        XCTAssertEqual(progress.last?.0, 5)
        XCTAssertEqual(try XCTUnwrap(PlatformIO.ownerAndMode(of: file.path)).mode, 0o600)
        let bytes = try Data(contentsOf: file)
        for secret in ["portable-secret", "web-secret", "svc", "example.com"] {
            XCTAssertNil(bytes.range(of: Data(secret.utf8)), "\(secret) appears in clear in the backup")
        }

        let target = try TestKeychain()
        XCTAssertNotEqual(
            target.keychain.keys.deviceKey.withUnsafeBytes { Data($0) },
            source.keychain.keys.deviceKey.withUnsafeBytes { Data($0) })
        let imported = try target.keychain.importBackup(from: file, passphrase: "backup pw")
        XCTAssertEqual(imported.addedItems, 3)
        XCTAssertEqual(imported.skippedAtExport, 2)
        XCTAssertEqual(imported.archiveID, exported.archiveID)
        XCTAssertEqual(
            try secrets(in: target.keychain),
            ["portable": "portable-secret", "unlocked": "unlocked-secret", "bob": "web-secret"])

        let original = try XCTUnwrap(source.keychain.find(query("svc", "portable"), returning: .attributes).first)
        let restored = try XCTUnwrap(target.keychain.find(query("svc", "portable"), returning: .attributes).first)
        for key in [AttributeKey.label, .comment, .accessible, .accessGroup, .creationDate, .modificationDate] {
            XCTAssertEqual(restored.attributes[key], original.attributes[key], key.rawValue)
        }
        XCTAssertTrue(try target.keychain.verify().isClean)
    }

    func testDuplicatePolicies() throws {
        let source = try populatedKeychain()
        let file = scratch.appendingPathComponent("b")
        try source.keychain.exportBackup(to: file, passphrase: "pw")
        let target = try TestKeychain()
        try target.keychain.add(password("svc", "portable", "newer-local-value", .afterFirstUnlock))

        XCTAssertKeychainError(
            .duplicateItem, try target.keychain.importBackup(from: file, passphrase: "pw", onDuplicate: .fail))
        XCTAssertEqual(
            try secrets(in: target.keychain), ["portable": "newer-local-value"], "a failed import changes nothing")

        let kept = try target.keychain.importBackup(from: file, passphrase: "pw")
        XCTAssertEqual([kept.addedItems, kept.keptExistingItems, kept.replacedItems], [2, 1, 0])
        XCTAssertEqual(try secrets(in: target.keychain)["portable"], "newer-local-value")

        let again = try target.keychain.importBackup(from: file, passphrase: "pw")
        XCTAssertEqual([again.addedItems, again.keptExistingItems], [0, 3], "importing twice duplicates nothing")

        let replaced = try target.keychain.importBackup(from: file, passphrase: "pw", onDuplicate: .replace)
        XCTAssertEqual(replaced.replacedItems, 3)
        XCTAssertEqual(try secrets(in: target.keychain)["portable"], "portable-secret")
        XCTAssertEqual(try target.keychain.inventory().total, 3)
    }

    func testWrongPassphraseAndDamagedFilesImportNothing() throws {
        let source = try populatedKeychain()
        for index in 0..<1100 { try source.keychain.add(password("bulk", "\(index)", "v", .afterFirstUnlock)) }
        let file = scratch.appendingPathComponent("b")
        try source.keychain.exportBackup(to: file, passphrase: "pw")
        let good = try Data(contentsOf: file)
        let target = try TestKeychain()

        XCTAssertKeychainError(.authFailed, try target.keychain.importBackup(from: file, passphrase: "not it"))

        let headerSize = BackupFormat.headerSize
        var cases: [(String, Data, KeychainError.Code)] = [
            ("not a backup", Data("hello".utf8), .invalidParameter),
            ("header byte", flipped(good, at: 30), .integrityViolation),
            ("first chunk byte", flipped(good, at: headerSize + 100), .integrityViolation),
            ("last byte", flipped(good, at: good.count - 1), .integrityViolation),
            ("cut inside a chunk", good.prefix(good.count - 10), .integrityViolation),
            ("appended bytes", good + Data([1, 2, 3]), .integrityViolation),
            ("header only", good.prefix(headerSize), .integrityViolation)
        ]
        // The file has two chunks (1024 items per chunk). Dropping the first leaves an intact last
        // chunk at the wrong index; cutting after the first leaves a middle chunk posing as the last.
        var reader = ByteReader(good.dropFirst(headerSize))
        let first = try XCTUnwrap(reader.readLengthPrefixed())
        let second = try XCTUnwrap(reader.readLengthPrefixed())
        XCTAssertTrue(reader.isAtEnd)
        func framed(_ chunk: Data) -> Data {
            var writer = ByteWriter()
            writer.appendLengthPrefixed(chunk)
            return writer.data
        }
        cases.append(("dropped chunk", good.prefix(headerSize) + framed(second), .integrityViolation))
        cases.append(("cut after a chunk", good.prefix(headerSize) + framed(first), .integrityViolation))
        cases.append(("swapped chunks", good.prefix(headerSize) + framed(second) + framed(first), .integrityViolation))

        for (name, bytes, code) in cases {
            let damaged = scratch.appendingPathComponent(name)
            try bytes.write(to: damaged)
            XCTAssertKeychainError(code, try target.keychain.importBackup(from: damaged, passphrase: "pw"), name)
            XCTAssertEqual(try target.keychain.inventory().total, 0, "\(name): nothing imported")
        }
        XCTAssertEqual(try target.keychain.importBackup(from: file, passphrase: "pw").addedItems, 1103)
    }

    func testExportNeedsUnlockedClassesAndRefusesToOverwrite() throws {
        let source = try populatedKeychain()
        try source.keychain.lock()
        let file = scratch.appendingPathComponent("b")
        XCTAssertKeychainError(.interactionNotAllowed, try source.keychain.exportBackup(to: file, passphrase: "pw"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), [], "no temporary file left")

        try source.keychain.unlock(passphrase: "device passphrase")
        try Data("keep me".utf8).write(to: file)
        XCTAssertKeychainError(.invalidParameter, try source.keychain.exportBackup(to: file, passphrase: "pw"))
        XCTAssertEqual(try Data(contentsOf: file), Data("keep me".utf8))
        XCTAssertNoThrow(try source.keychain.exportBackup(to: file, passphrase: "pw", replacingExisting: true))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), ["b"])
    }

    func testNonExtractableKeysStayBehind() throws {
        let source = try TestKeychain()
        try source.keychain.add(
            NewItem(
                .key, attributes: [.applicationTag: .data(Data("exportable".utf8)), .keyClass: 1],
                data: Data("key-1".utf8), accessibility: .afterFirstUnlock))
        try source.keychain.add(
            NewItem(
                .key, attributes: [.applicationTag: .data(Data("bound".utf8)), .keyClass: 1, .isExtractable: 0],
                data: Data("key-2".utf8), accessibility: .afterFirstUnlock))
        let file = scratch.appendingPathComponent("b")
        let exported = try source.keychain.exportBackup(to: file, passphrase: "pw")
        XCTAssertEqual(
            [exported.exportedItems, exported.skippedNonExtractableKeys, exported.skippedThisDeviceOnlyItems], [1, 1, 0]
        )
        let target = try TestKeychain()
        let imported = try target.keychain.importBackup(from: file, passphrase: "pw")
        XCTAssertEqual([imported.addedItems, imported.skippedAtExport], [1, 1])
        let keys = try target.keychain.findAll(Query(.key), returning: [.attributes, .data])
        XCTAssertEqual(keys.map(\.data), [Data("key-1".utf8)])
    }

    func testWriterRefusesParametersNoReaderAccepts() throws {
        XCTAssertKeychainError(
            .invalidParameter, try BackupWriter(passphrase: "pw", parameters: ScryptParameters(logN: 22)))
        XCTAssertKeychainError(
            .invalidParameter, try BackupWriter(passphrase: "pw", parameters: ScryptParameters(logN: 12, blockSize: 16))
        )
        XCTAssertKeychainError(.invalidParameter, try BackupWriter(passphrase: "", parameters: .insecureForTestingOnly))
        let capped = try BackupWriter(
            passphrase: "pw", parameters: ScryptParameters(logN: 10, blockSize: 8, parallelism: 40))
        XCTAssertNoThrow(
            try BackupReader(header: capped.header, passphrase: "pw", source: "test"),
            "p is capped to what readers accept")
    }

    func testLargeItemsCloseChunksEarly() throws {
        var writer = try BackupWriter(passphrase: "pw", parameters: .insecureForTestingOnly)
        let big = BackupRecord(itemClass: .genericPassword, attributes: [:], data: Data(count: 700_000))
        XCTAssertEqual(try writer.append(big).count, 0)
        XCTAssertEqual(
            try writer.append(big).count, 1, "the first item's chunk is sealed before the second would pass 1 MiB")
        let huge = BackupRecord(
            itemClass: .genericPassword, attributes: [:], data: Data(count: BackupFormat.maximumChunkBytes))
        XCTAssertKeychainError(.invalidParameter, try writer.append(huge))
    }

    private func flipped(_ data: Data, at offset: Int) -> Data {
        var copy = data
        copy[offset] ^= 0x01
        return copy
    }
}
