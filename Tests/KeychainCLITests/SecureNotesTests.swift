import Foundation
import XCTest

/// The SecureNotes example end to end: `secure-notes` version 1 keeps notes in a plaintext property
/// list; `migrate` moves them into a GRDB database with sealed bodies behind a keychain
/// passphrase and a PIN, asked on a terminal with echo off, and scrubs the list.
final class SecureNotesTests: CLITestCase {
    private let app = CLITestCase.builtExecutable("secure-notes")
    private var notes: URL { scratch.appendingPathComponent("notes") }
    private var changes: [String: String?] { ["NOTES_HOME": notes.path] }

    private func notesApp(_ arguments: String..., input: String = "") throws -> CLIResult {
        try run(arguments, input: Data(input.utf8), executable: app, changing: changes)
    }

    /// Every byte of the notes directory's files.
    private func storedBytes() throws -> Data {
        var bytes = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: notes.path) {
            bytes.append(try Data(contentsOf: notes.appendingPathComponent(name)))
        }
        return bytes
    }

    func testVersion1NotesMoveToSealedStorageBehindPassphraseAndPIN() throws {
        XCTAssertStatus(try notesApp("v1-add", "Groceries", "milk, eggs BODY-MARKER-1"), 0)
        XCTAssertStatus(try notesApp("v1-add", "Ideas", "a notes app BODY-MARKER-2"), 0)
        XCTAssertNotNil(try storedBytes().range(of: Data("BODY-MARKER-1".utf8)), "version 1 keeps plaintext")

        let migrated = try runOnTerminal(
            ["migrate"],
            answers: [
                ("New keychain passphrase: ", "correct horse staple"),
                ("Repeat the keychain passphrase: ", "correct horse staple"),
                ("New PIN for the notes: ", "4826"), ("Repeat the PIN for the notes: ", "4826")
            ], executable: app, changing: changes)
        XCTAssertStatus(migrated.result, 0)
        XCTAssertTrue(migrated.result.stdout.contains("2 notes moved"), migrated.result.stdout)
        XCTAssertFalse(
            migrated.displayed.contains("correct horse") || migrated.displayed.contains("4826"),
            "no echo: \(migrated.displayed)")
        XCTAssertTrue(migrated.echoRestored)
        let stored = try storedBytes()
        XCTAssertNil(stored.range(of: Data("BODY-MARKER".utf8)), "no body in the list or the database, in any file")
        XCTAssertNotNil(stored.range(of: Data("Groceries".utf8)), "titles stay plain, so list needs no PIN")

        let listed = try notesApp("list")
        XCTAssertEqual(listed.stdout, "1  Groceries\n2  Ideas\n")

        let shown = try runOnTerminal(
            ["show", "2"],
            answers: [("Keychain passphrase: ", "correct horse staple"), ("PIN to open the notes: ", "4826")],
            executable: app, changing: changes)
        XCTAssertStatus(shown.result, 0)
        XCTAssertEqual(shown.result.stdout, "Ideas\na notes app BODY-MARKER-2\n")

        let wrongPIN = try runOnTerminal(
            ["show", "1"],
            answers: [("Keychain passphrase: ", "correct horse staple"), ("PIN to open the notes: ", "0000")],
            executable: app, changing: changes)
        XCTAssertEqual(wrongPIN.result.status, 1)
        XCTAssertFalse(wrongPIN.result.stdout.contains("BODY-MARKER"))
        let wrongPassphrase = try notesApp("show", "1", input: "not it\n4826\n")
        XCTAssertEqual(wrongPassphrase.status, 1)
        XCTAssertFalse(wrongPassphrase.stdout.contains("BODY-MARKER"))

        let retired = try notesApp("v1-add", "Late", "after the move")
        XCTAssertEqual(retired.status, 1, "version 1 cannot write once version 2 is in use")
        let mode = try XCTUnwrap(
            FileManager.default.attributesOfItem(atPath: notes.path)[.posixPermissions] as? NSNumber
        ).intValue
        XCTAssertEqual(mode, 0o700, "titles are plain: the directory is private")
    }

    /// Without SECURE_STORAGE_HOME the example keeps a keychain of its own in NOTES_HOME.
    func testTheExampleUsesItsOwnKeychainByDefault() throws {
        XCTAssertStatus(
            try run(
                ["v1-add", "Groceries", "milk"], input: Data(), executable: app,
                changing: changes.merging(["SECURE_STORAGE_HOME": nil]) { $1 }), 0)
        let migrated = try run(
            ["migrate"], input: Data("pass phrase\npass phrase\n4826\n4826\n".utf8), executable: app,
            changing: changes.merging(["SECURE_STORAGE_HOME": nil]) { $1 })
        XCTAssertStatus(migrated, 0)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: notes.appendingPathComponent("keychain/data/keychain.db").path))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: home.appendingPathComponent("data/keychain.db").path),
            "the keychain SECURE_STORAGE_HOME would name was not touched")
    }

    /// A migration killed right after the notes were imported finishes on the next run: the
    /// list still held the notes until then, and no note is there twice.
    func testAMigrationKilledAfterImportingFinishesWithoutDuplicates() throws {
        XCTAssertStatus(try notesApp("v1-add", "Groceries", "milk, eggs BODY-MARKER-1"), 0)
        let killed = try run(
            ["migrate"], input: Data("pass phrase\npass phrase\n4826\n4826\n".utf8), executable: app,
            changing: changes.merging(["SECURE_NOTES_STOP_AFTER": "imported"]) { $1 })
        XCTAssertNotEqual(killed.status, 0, "killed after the import")
        XCTAssertNotNil(
            try Data(contentsOf: notes.appendingPathComponent("notes.plist")).range(of: Data("BODY-MARKER-1".utf8)),
            "not scrubbed before verification")
        let finished = try notesApp("migrate", input: "pass phrase\n4826\n")
        XCTAssertStatus(finished, 0)
        XCTAssertTrue(finished.stdout.contains("(resumed)"), finished.stdout)
        XCTAssertEqual(try notesApp("list").stdout, "1  Groceries\n")
        XCTAssertNil(try storedBytes().range(of: Data("BODY-MARKER".utf8)))
        XCTAssertEqual(
            try notesApp("show", "1", input: "pass phrase\n4826\n").stdout, "Groceries\nmilk, eggs BODY-MARKER-1\n")
    }
}
