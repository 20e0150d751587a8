import Crypto
import Foundation
import GRDB
import XCTest
@_spi(Testing) @testable import KeychainCore

/// Attacks on the read-only opening (`KeychainOptions.readOnly`, which the tool's reading
/// commands use) and on the write-ahead log that now outlives its connections: an old copy,
/// a missing anchor or log, odd header values, and a read-only process that is the last to
/// close after a writer's scrubbing checkpoint was blocked.
final class ReadOnlyOpeningAttackTests: XCTestCase {
    private var directory: URL!
    private var location: KeychainLocation!
    private var options = KeychainOptions(
        passphraseHardening: .fixed(.insecureForTestingOnly), busyTimeout: .milliseconds(300),
        defaultAccessGroup: "TEAM.test.app", tpm: nil)

    private var scratch: ScratchLocation!

    override func setUpWithError() throws {
        scratch = ScratchLocation("kc-readonly-attack")
        (directory, location) = (scratch.directory, scratch.location)
    }

    override func tearDownWithError() throws { scratch.remove() }

    private var readOnly: KeychainOptions { options.readingOnly }

    private var walPath: String { location.databaseURL.path + "-wal" }
    private func walSize() -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: walPath))?[.size] as? Int) ?? -1
    }

    /// The keybag rows of the main database file alone, read from a copy made without its -wal
    /// (what a backup of keychain.db, or a copy taken without the log, holds).
    private func keybagOfMainFileAlone() throws -> [Row] {
        let copy = directory.appendingPathComponent("main-only-\(UUID().uuidString).db")
        try FileManager.default.copyItem(at: location.databaseURL, to: copy)
        let queue = try DatabaseQueue(path: copy.path)
        defer { try? queue.close() }
        return try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM keybag ORDER BY 1") }
    }

    private func keybagNow() throws -> [Row] {
        let queue = try DatabaseQueue(path: location.databaseURL.path)
        defer { try? queue.close() }
        return try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM keybag ORDER BY 1") }
    }

    /// Holds a read snapshot on `keychain` (another thread) until `release` is signalled.
    private func holdSnapshot(on keychain: Keychain) -> (release: DispatchSemaphore, done: DispatchSemaphore) {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? keychain.read { db -> Int in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items") ?? 0  // the snapshot starts here
                started.signal()
                release.wait()
                return count
            }
            done.signal()
        }
        started.wait()
        return (release, done)
    }

    /// A read-only connection cannot checkpoint, so a read-only instance that closes last would
    /// leave the log neither moved into the file nor emptied: after a passphrase change whose own
    /// checkpoint a reader blocked, the main file would keep the old keybag (and the items' old
    /// key wraps) after every connection closed. A read-only instance that finds the log holding
    /// frames when it goes therefore finishes the checkpoint through a connection of its own.
    func runPassphraseChangeBlockedByAReader(readerIsReadOnly: Bool) throws -> (
        oldKeybagInMainFile: Bool, walSizeAfterLastClose: Int
    ) {
        do {
            let keychain = try Keychain(location: location, options: options)
            try keychain.setPassphrase("leaked")
            for index in 0..<5 { try keychain.add(password("bank", "acct-\(index)", "secret-\(index)", .whenUnlocked)) }
        }
        let oldKeybag = try keybagNow()
        do {
            var writer: Keychain? = try Keychain(location: location, options: options)
            try writer!.unlock(passphrase: "leaked")
            var reader: Keychain? = try Keychain(location: location, options: readerIsReadOnly ? readOnly : options)
            let (release, done) = holdSnapshot(on: reader!)
            // its checkpoint times out: the reader is in the way
            try writer!.changePassphrase(from: "leaked", to: "fresh")
            writer = nil  // the writer's process ends first (its close cannot checkpoint: the reader has the file open)
            release.signal()
            done.wait()
            reader = nil
            XCTAssertNil(reader)
            Thread.sleep(forTimeInterval: 0.3)  // the holding thread drops its reference
        }
        let mainFileKeybag = try keybagOfMainFileAlone()
        return (mainFileKeybag == oldKeybag, walSize())
    }

    func testAReadOnlyLastCloserLeavesNoOldKeybagInTheMainFile() throws {
        let result = try runPassphraseChangeBlockedByAReader(readerIsReadOnly: true)
        XCTAssertFalse(
            result.oldKeybagInMainFile,
            "after every connection closed, keychain.db alone still holds the keybag of the old passphrase")
        XCTAssertEqual(result.walSizeAfterLastClose, 0, "after every connection closed, the log still holds frames")
    }

    /// Control: the same sequence with a reader opened for writing: its close checkpoints and the
    /// main file no longer holds the old keybag.
    func testControlAWritableLastCloserCheckpoints() throws {
        let result = try runPassphraseChangeBlockedByAReader(readerIsReadOnly: false)
        XCTAssertFalse(result.oldKeybagInMainFile)
        XCTAssertEqual(result.walSizeAfterLastClose, 0)
    }

    /// The exploit the property guards against: someone with the device key (who can forge the
    /// anchor) and the old passphrase, given keychain.db alone, reads every item as of the change.
    func testTheMainFileAloneNeverOpensWithTheOldPassphraseAfterAReadOnlyLastClose() throws {
        _ = try runPassphraseChangeBlockedByAReader(readerIsReadOnly: true)
        let copy = KeychainLocation(
            databaseURL: directory.appendingPathComponent("stolen/data/keychain.db"),
            deviceKeyURL: directory.appendingPathComponent("stolen/state/device.key"))
        try FileManager.default.createDirectory(
            at: copy.databaseURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: copy.deviceKeyURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: location.databaseURL, to: copy.databaseURL)  // the main file only
        try FileManager.default.copyItem(at: location.deviceKeyURL, to: copy.deviceKeyURL)
        // Forge the anchor for the header the main file carries (needs only the device key).
        let deviceKey = try DeviceKeyFile.load(
            at: copy.deviceKeyURL, mayCreate: false, options: KeychainOptions(tpm: nil)
        ).0
        let queue = try DatabaseQueue(path: copy.databaseURL.path)
        let (vaultID, headerMAC) = try queue.read { db in
            (try XCTUnwrap(VaultHeader.fetch(db)).vaultID, try XCTUnwrap(HeaderAuthenticator.storedCode(db)))
        }
        try queue.close()
        try FormatAnchor(vaultID: vaultID, formatVersion: KeychainSchema.formatVersion, headerMACs: [headerMAC]).write(
            for: copy, deviceKey: deviceKey)
        let stolen = try Keychain(location: copy, options: options)
        XCTAssertKeychainError(
            .authFailed, try stolen.unlock(passphrase: "leaked"), "the old passphrase opens the main file")
        let found: [FoundItem]? = try? stolen.find(query("bank", "acct-3"), returning: [.data])
        XCTAssertNil(found?.first?.data, "an item rewrapped by the change is read with the old passphrase")
    }

    /// Same mechanism for a delete: the deleted item's ciphertext must leave keychain.db (secure
    /// delete zeroes pages only when the log is checkpointed into the file), whichever kind of
    /// reader closes last.
    func testADeletedItemIsScrubbedFromTheMainFileAfterAReadOnlyLastClose() throws {
        XCTAssertFalse(
            try deletedCiphertextSurvivesBlockedDelete(readerIsReadOnly: true),
            "after every connection closed, the deleted item's ciphertext is still in keychain.db")
    }

    /// Control for the delete variant: a writable reader.
    func testControlADeletedItemIsScrubbedByAWritableLastCloser() throws {
        XCTAssertFalse(try deletedCiphertextSurvivesBlockedDelete(readerIsReadOnly: false))
    }

    /// Adds an item, then deletes it while a reader holds a snapshot (so the delete's own
    /// checkpoint is blocked), lets the writer close first and the reader last; returns whether
    /// the item's ciphertext is still in the main file.
    private func deletedCiphertextSurvivesBlockedDelete(readerIsReadOnly: Bool) throws -> Bool {
        var ciphertext = Data()
        do {
            let keychain = try Keychain(location: location, options: options)
            try keychain.add(password("svc", "doomed", String(repeating: "s", count: 64)))
            keychain.checkpoint()
            ciphertext = try keychain.read { db in try XCTUnwrap(Data.fetchOne(db, sql: "SELECT secret FROM items")) }
        }
        do {
            var writer: Keychain? = try Keychain(location: location, options: options)
            var reader: Keychain? = try Keychain(location: location, options: readerIsReadOnly ? readOnly : options)
            let (release, done) = holdSnapshot(on: reader!)
            try writer!.delete(query("svc", "doomed"))  // its checkpoint is blocked by the reader
            writer = nil
            release.signal()
            done.wait()
            reader = nil
            XCTAssertNil(reader)
            Thread.sleep(forTimeInterval: 0.3)  // the holding thread drops its reference
        }
        return try Data(contentsOf: location.databaseURL).range(of: ciphertext) != nil
    }
}

extension ReadOnlyOpeningAttackTests {

    /// A keychain last closed by the previous library (no -wal, no -shm: the last close deleted
    /// them) opened read-only, as `keychain find-generic-password` now does.
    func testReadOnlyOpeningOfAKeychainWithoutItsLog() throws {
        do {
            let keychain = try Keychain(location: location, options: options)
            try keychain.add(password("svc", "acct", "v"))
        }
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: location.databaseURL.path + suffix)
        }
        let keychain = try Keychain(location: location, options: readOnly)
        XCTAssertEqual(try keychain.find(query("svc", "acct"), returning: .data).first?.data, Data("v".utf8))
        XCTAssertTrue(try keychain.verify().isClean)
    }

    /// The anchor deleted: a read-only opening must refuse as the normal opening does.
    func testReadOnlyOpeningWithoutTheAnchorIsRefused() throws {
        var vaultID = UUID()
        do {
            let keychain = try Keychain(location: location, options: options)
            try keychain.add(password("svc", "acct", "v"))
            vaultID = keychain.vaultID
        }
        try FileManager.default.removeItem(at: FormatAnchor.url(for: location, vaultID: vaultID))
        XCTAssertKeychainError(.integrityViolation, try Keychain(location: location, options: readOnly))
        XCTAssertKeychainError(.integrityViolation, try Keychain(location: location, options: options))
    }

    /// An older copy of keychain.db (with and without its -wal) from before a passphrase change,
    /// put back beside the current anchor: refused by both openings.
    func testReadOnlyOpeningRefusesAnOlderCopyFromBeforeAHeaderChange() throws {
        let old = directory.appendingPathComponent("old.db")
        do {
            let keychain = try Keychain(location: location, options: options)
            try keychain.add(password("svc", "acct", "v"))
            keychain.checkpoint()
            try FileManager.default.copyItem(at: location.databaseURL, to: old)
            try keychain.setPassphrase("pw")
        }
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: location.databaseURL.path + suffix)
        }
        try FileManager.default.removeItem(at: location.databaseURL)
        try FileManager.default.copyItem(at: old, to: location.databaseURL)
        XCTAssertKeychainError(
            .integrityViolation, try Keychain(location: location, options: readOnly).find(query("svc", "acct")))
        XCTAssertKeychainError(.integrityViolation, try Keychain(location: location, options: options))
    }

    /// Wrong-typed or odd values in the header's format column: a clear error, never a crash,
    /// by both openings (the fast path reads it with a throwing decode). Values SQLite's INTEGER
    /// affinity turns into the same integer ('5', ' 5', 5.0) are the same value.
    func testOddFormatVersionValuesAreRefusedCleanly() throws {
        for edit in [
            "format_version = '5'", "format_version = 5.0", "format_version = x'05'", "format_version = 'x'",
            "format_version = 5.5",
            "format_version = x'06'", "format_version = 7", "format_version = NULL"
        ] {
            try checkFormatEdit(edit, opens: false)
        }
        for edit in ["format_version = '6'", "format_version = ' 6'", "format_version = 6.0"] {
            try checkFormatEdit(edit, opens: true)
        }
    }

    /// Informational (held, pre-existing): a REAL 6.5 is read as 6 by GRDB's Int decoding in both
    /// the fast and the slow path, and the header MAC covers the decoded integer, so the file
    /// opens. Nothing the file says changes; recorded so that a stricter decode is a conscious choice.
    func testAFractionalFormatVersionIsReadAsItsIntegerPart() throws {
        try checkFormatEdit("format_version = 6.5", opens: true)
    }

    private func checkFormatEdit(_ edit: String, opens: Bool) throws {
        let location = KeychainLocation(
            databaseURL: directory.appendingPathComponent("\(UUID().uuidString)/data/keychain.db"),
            deviceKeyURL: directory.appendingPathComponent("\(UUID().uuidString)/state/device.key"))
        do {
            let keychain = try Keychain(location: location, options: options)
            try keychain.add(password("svc", "acct", "v"))
        }
        let queue = try DatabaseQueue(path: location.databaseURL.path)
        do {
            try queue.writeWithoutTransaction { db in try db.execute(sql: "UPDATE vault_header SET \(edit)") }
        } catch {
            try queue.close()
            return  // refused by SQLite (NOT NULL)
        }
        try queue.close()
        for opening in [options, readOnly] {
            do {
                let keychain = try Keychain(location: location, options: opening)
                XCTAssertEqual(try keychain.find(query("svc", "acct"), returning: .data).first?.data, Data("v".utf8))
                XCTAssertTrue(opens, "\(edit) readOnly=\(opening.readOnly): opened and read")
            } catch {
                XCTAssertFalse(opens, "\(edit) readOnly=\(opening.readOnly): \(error)")
                XCTAssertTrue(
                    [.integrityViolation, .unsupportedVersion].contains(error.code),
                    "\(edit) readOnly=\(opening.readOnly): \(error)")
            }
        }
    }
}
