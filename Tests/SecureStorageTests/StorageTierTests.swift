#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorage
import XCTest

/// The facade's tiers: sensitivity tags pick file classes, each service has its own store of
/// protected files beside the keychain, and migrations can go to destinations other than the
/// keychain.
final class StorageTierTests: StorageTestCase {
    private struct SimulatedCrash: Error {}

    func testSensitivityTagsPickFileClasses() {
        XCTAssertEqual(Sensitivity.public.fileProtection, .completeUntilFirstUserAuthentication)
        XCTAssertEqual(Sensitivity.private.fileProtection, .completeUntilFirstUserAuthentication)
        XCTAssertEqual(Sensitivity.secret.fileProtection, .complete)
        XCTAssertEqual(Sensitivity.topSecret.fileProtection, .complete)
        XCTAssertEqual(Sensitivity.custom(.always).fileProtection, .none)
        XCTAssertEqual(Sensitivity.custom(.afterFirstUnlock).fileProtection, .completeUntilFirstUserAuthentication)
    }

    func testEachServiceHasItsStoreBesideTheKeychain() throws {
        let files = try storage.files()
        XCTAssertEqual(
            files.directory.path,
            keychain.location.databaseURL.deletingLastPathComponent().appendingPathComponent("files/com.acme.app").path)
        XCTAssertEqual(files.identifier, "com.acme.app")
        try files.write(Data("report".utf8), to: "report.pdf", sensitivity: .secret)
        XCTAssertEqual(try files.protection(of: "report.pdf"), .complete)
        try files.write(Data("cache".utf8), to: "cache.json", sensitivity: .private)
        XCTAssertEqual(try files.protection(of: "cache.json"), .completeUntilFirstUserAuthentication)

        let keys = SecureStorage(service: ProtectedFiles.keyService(for: "com.acme.app")).libraryOwned(
            by: .protectedFiles)
        XCTAssertEqual(
            try keys.protection(of: "names"), .alwaysThisDeviceOnly, "a .secret storage keeps device-bound keys")
        let shared = try SecureStorage(service: "com.acme/shared", defaultSensitivity: .public).files()
        XCTAssertEqual(shared.directory.lastPathComponent, "com.acme%2Fshared", "one path component")
        // Every service its own directory: no two names collide, none leaves files/.
        let names = ["a/b", "a_b", "a%2Fb", "café", "cafe", "caf_", "..", ".", "", ".x", "%2Ex"].map(
            SecureStorage.directoryName(for:))
        XCTAssertEqual(Set(names).count, names.count, "\(names)")
        XCTAssertTrue(names.allSatisfy { !$0.hasPrefix(".") && !$0.contains("/") && !$0.isEmpty }, "\(names)")
        XCTAssertEqual(
            try SecureStorage(service: "..").files().directory.deletingLastPathComponent().lastPathComponent, "files")
        try shared.write(Data("x".utf8), to: "x", sensitivity: .public)
        XCTAssertEqual(
            try SecureStorage(service: ProtectedFiles.keyService(for: "com.acme/shared")).libraryOwned(
                by: .protectedFiles
            ).protection(of: "names"), .always)
    }

    func testTopSecretFilesNeedAPassphrase() throws {
        let files = try storage.files()
        XCTAssertStorageError(
            .passcodeRequired, try files.write(Data("key".utf8), to: "signing.key", sensitivity: .topSecret))
        XCTAssertEqual(try files.names(), [])
        try keychain.setPassphrase("device passcode")
        try files.write(Data("key".utf8), to: "signing.key", sensitivity: .topSecret)
        XCTAssertEqual(try files.protection(of: "signing.key"), .complete)
    }

    // MARK: - Migration destinations

    /// A destination's error that says why without a value.
    private struct OutOfSpace: LocalizedError {
        var failureReason: String? { "the disk is full" }
    }

    /// Values kept in memory, failing on demand.
    private final class MemoryDestination: MigrationDestination, @unchecked Sendable {
        let identifier = "memory:notes"
        private let lock = NSLock()
        private var values: [String: StoredValue] = [:]
        var failing = false
        private(set) var writes = 0

        func store(_ value: StoredValue, for key: String) throws {
            lock.lock()
            defer { lock.unlock() }
            if failing { throw OutOfSpace() }
            values[key] = value
            writes += 1
        }

        func storedValue(for key: String) throws -> StoredValue? {
            lock.lock()
            defer { lock.unlock() }
            return values[key]
        }

        var keys: [String] {
            lock.lock()
            defer { lock.unlock() }
            return values.keys.sorted()
        }
    }

    private func preferences() throws -> URL {
        let url = directory.appendingPathComponent("notes.plist")
        let plist: [String: Any] = ["note.1.body": "milk, eggs", "note.2.body": "call Ann", "theme": "dark"]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: url)
        return url
    }

    func testAMigrationIntoAnotherDestinationIsJournaledVerifiedAndResumable() throws {
        let source = try preferences()
        let destination = MemoryDestination()
        var stopped = SourceMigration(
            file: source, selection: KeySelection(patterns: ["note.*"]), destination: destination)
        stopped.afterStep = { step in if step == .imported { throw SimulatedCrash() } }
        XCTAssertThrowsError(try stopped.run())
        XCTAssertEqual(destination.keys, ["note.1.body", "note.2.body"])
        XCTAssertNotNil(
            try PropertyListSerialization.propertyList(from: Data(contentsOf: source), format: nil) as? [String: Any],
            "the source is untouched until verified")

        let report = try SourceMigration(
            file: source, selection: KeySelection(patterns: ["note.*"]), destination: destination
        ).run()
        XCTAssertTrue(report.resumed)
        XCTAssertTrue(report.sourceScrubbed)
        XCTAssertEqual(destination.writes, 2, "a run resumed after the import does not store again")
        XCTAssertEqual(try destination.storedValue(for: "note.1.body")?.data, Data("milk, eggs".utf8))
        let remaining = try XCTUnwrap(
            PropertyListSerialization.propertyList(from: Data(contentsOf: source), format: nil) as? [String: String])
        XCTAssertEqual(remaining, ["theme": "dark"])
        XCTAssertEqual(try storage.allKeys(), [], "nothing went to the keychain but the journal")
    }

    /// Imported, then lost at the destination before the verification (a restored backup): the
    /// next run stores again instead of failing forever.
    func testValuesLostAtTheDestinationAreStoredAgain() throws {
        let source = try preferences()
        let lost = MemoryDestination()
        var stopped = SourceMigration(file: source, selection: KeySelection(patterns: ["note.*"]), destination: lost)
        stopped.afterStep = { step in if step == .imported { throw SimulatedCrash() } }
        XCTAssertThrowsError(try stopped.run())
        let restored = MemoryDestination()  // same identifier, nothing in it
        let report = try SourceMigration(
            file: source, selection: KeySelection(patterns: ["note.*"]), destination: restored
        ).run()
        XCTAssertTrue(report.sourceScrubbed)
        XCTAssertEqual(restored.keys, ["note.1.body", "note.2.body"])
    }

    /// A destination named like a keychain service does not resume that service's journal.
    func testTheJournalKeepsDestinationsApartFromKeychainServices() throws {
        let source = try preferences()
        var keychainRun = SourceMigration(
            file: source, selection: KeySelection(patterns: ["note.*"]), service: "memory:notes")
        keychainRun.afterStep = { step in if step == .imported { throw SimulatedCrash() } }
        XCTAssertThrowsError(try keychainRun.run())
        XCTAssertThrowsError(
            try SourceMigration(
                file: source, selection: KeySelection(patterns: ["note.*"]), destination: MemoryDestination()
            ).run()
        ) { error in
            XCTAssertEqual((error as? MigrationError)?.code, .interruptedMigrationPending)
        }
    }

    func testAFailingDestinationLeavesTheSourceAndSaysWhy() throws {
        let source = try preferences()
        let before = try Data(contentsOf: source)
        let destination = MemoryDestination()
        destination.failing = true
        XCTAssertThrowsError(
            try SourceMigration(file: source, selection: KeySelection(patterns: ["note.*"]), destination: destination)
                .run()
        ) { error in
            let error = error as? MigrationError
            XCTAssertEqual(error?.code, .destination)
            XCTAssertEqual(error?.key, "note.1.body")
            XCTAssertFalse(error.map(String.init(describing:))?.contains("milk") ?? true, "no value in the message")
            XCTAssertEqual(
                error?.reason, "a OutOfSpace error: the disk is full", "the type and the failure reason only")
        }
        XCTAssertEqual(try Data(contentsOf: source), before)
    }
}
#endif
