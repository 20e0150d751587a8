import Foundation
import XCTest
@_spi(Testing) @testable import KeychainCore

/// `KeychainOptions.readOnly`: reading leaves every file of the keychain as it was (a tool that
/// only reads must not write, sync or re-create anything, and must work on a read-only mount),
/// and nothing can be changed through such an instance.
final class ReadOnlyOpeningTests: XCTestCase {
    private var directory: URL!
    private var location: KeychainLocation!
    private let options = KeychainOptions(
        passphraseHardening: .fixed(.insecureForTestingOnly), defaultAccessGroup: "TEAM.test.app", tpm: nil)

    private var scratch: ScratchLocation!

    override func setUpWithError() throws {
        scratch = ScratchLocation("kc-readonly")
        (directory, location) = (scratch.directory, scratch.location)
    }

    override func tearDownWithError() throws { scratch.remove() }

    private var readOnly: KeychainOptions { options.readingOnly }

    /// Every file under the keychain's directories but the write-ahead log's index (`-shm`,
    /// which SQLite rebuilds when no connection has it open; it holds no data): its bytes,
    /// modification time and inode.
    private func snapshot() throws -> [String: [String]] {
        var files: [String: [String]] = [:]
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if url.path.hasSuffix("-shm") { continue }
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let contents =
                (attributes[.type] as? FileAttributeType) == .typeRegular
                ? try Data(contentsOf: url).base64EncodedString() : "directory"
            files[url.lastPathComponent] = [
                contents, "\((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)",
                "\(attributes[.systemFileNumber] ?? 0)"
            ]
        }
        return files
    }

    private func populate() throws {
        let keychain = try Keychain(location: location, options: options)
        for index in 0..<20 { try keychain.add(password("svc", "acct-\(index)", "secret-\(index)")) }
        try keychain.setPassphrase("pw")
        try keychain.add(password("svc", "locked", "class A", .whenUnlocked))
    }

    func testReadingWritesNothing() throws {
        try populate()
        let before = try snapshot()
        XCTAssertEqual(
            try FileManager.default.attributesOfItem(atPath: location.databaseURL.path + "-wal")[.size] as? Int, 0,
            "the last connection to close left the log, empty")
        Thread.sleep(forTimeInterval: 0.02)  // a rewrite would show in the modification times
        for _ in 0..<3 {
            let keychain = try Keychain(location: location, options: readOnly)
            XCTAssertKeychainError(.interactionNotAllowed, try keychain.find(query("svc", "locked"), returning: .data))
            try keychain.unlock(passphrase: "pw")
            XCTAssertEqual(
                try keychain.find(query("svc", "acct-7"), returning: .data).first?.data, Data("secret-7".utf8))
            XCTAssertEqual(
                try keychain.find(query("svc", "locked"), returning: .data).first?.data, Data("class A".utf8))
            XCTAssertEqual(try keychain.findAll(Query(.genericPassword)).count, 21)
            XCTAssertTrue(try keychain.verify().isClean)
        }
        XCTAssertEqual(try snapshot(), before, "no file was written, created, replaced or removed")
    }

    func testReadingWorksBesideAWriterAndSeesItsWrites() throws {
        try populate()
        let writer = try Keychain(location: location, options: options)
        try writer.unlock(passphrase: "pw")
        let reader = try Keychain(location: location, options: readOnly)
        try reader.unlock(passphrase: "pw")
        try writer.add(password("svc", "later", "v"))
        XCTAssertEqual(try reader.find(query("svc", "later"), returning: .data).first?.data, Data("v".utf8))
        try writer.changePassphrase(from: "pw", to: "new")
        XCTAssertKeychainError(
            .authFailed, try Keychain(location: location, options: readOnly).unlock(passphrase: "pw"))
        XCTAssertNoThrow(try Keychain(location: location, options: readOnly).unlock(passphrase: "new"))
    }

    func testNothingCanBeChanged() throws {
        try populate()
        let keychain = try Keychain(location: location, options: readOnly)
        try keychain.unlock(passphrase: "pw")
        XCTAssertKeychainError(.readOnly, try keychain.add(password("svc", "new")))
        XCTAssertKeychainError(.readOnly, try keychain.add(contentsOf: [password("svc", "new")]))
        XCTAssertKeychainError(
            .readOnly, try keychain.update(query("svc", "acct-1"), with: ItemChanges(data: Data("x".utf8))))
        XCTAssertKeychainError(.readOnly, try keychain.delete(query("svc", "acct-1")))
        XCTAssertKeychainError(.readOnly, try keychain.lock())
        XCTAssertKeychainError(.readOnly, try keychain.changePassphrase(from: "pw", to: "other"))
        XCTAssertKeychainError(.readOnly, try keychain.removePassphrase(current: "pw"))
        XCTAssertKeychainError(.readOnly, try keychain.unlock(passphrase: "pw", keepingSessionFor: .seconds(60)))
        XCTAssertEqual(keychain.lockState, .unlocked, "a refused lock changes nothing")
        let writer = try Keychain(location: location, options: options)
        try writer.unlock(passphrase: "pw")
        XCTAssertEqual(try writer.findAll(Query(.genericPassword)).count, 21)
    }

    func testAMissingKeychainIsNotCreated() throws {
        XCTAssertKeychainError(.noSuchKeychain, try Keychain(location: location, options: readOnly))
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path), "no directory or file was created")
    }

    /// The log outlives the connections but never the frames they wrote: after a passphrase
    /// change and the last close it is empty, so it holds no keybag of the old passphrase.
    func testTheLogIsEmptiedWhenTheLastConnectionCloses() throws {
        try populate()
        do {
            let keychain = try Keychain(location: location, options: options)
            try keychain.changePassphrase(from: "pw", to: "new")
            try keychain.add(password("svc", "after", "v"))
            let size =
                try FileManager.default.attributesOfItem(atPath: location.databaseURL.path + "-wal")[.size] as? Int
            XCTAssertGreaterThan(size ?? 0, 0, "open, the log holds the last write")
        }
        XCTAssertEqual(
            try FileManager.default.attributesOfItem(atPath: location.databaseURL.path + "-wal")[.size] as? Int, 0)
    }
}
