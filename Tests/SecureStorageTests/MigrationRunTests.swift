#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
@testable import SecureStorage
import XCTest

/// plan → import → verify → scrub → done: resumable after a stop at every step, idempotent,
/// and the source is untouched unless every value was verified in the keychain.
final class MigrationRunTests: StorageTestCase {
    private struct SimulatedCrash: Error {}

    private var source: URL!
    private let env = """
        # app settings
        API_TOKEN=tok_4f9a8b7c6d5e4f3a2b1c
        DB_PASSWORD="hunter2 with spaces"
        THEME=dark

        """

    override func setUpWithError() throws {
        try super.setUpWithError()
        source = directory.appendingPathComponent("app.env")
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: source.path, contents: Data(env.utf8), attributes: [.posixPermissions: 0o640]))
    }

    private func migration(_ selection: KeySelection = KeySelection(), stopAfter step: SourceMigration.Step? = nil)
        -> SourceMigration
    {
        var migration = SourceMigration(
            file: source, selection: selection, service: "com.acme.app", sensitivity: .private)
        if let step {
            migration.afterStep = { reached in if reached == step { throw SimulatedCrash() } }
        }
        return migration
    }

    private var sourceText: String {
        String(decoding: FileManager.default.contents(atPath: source.path) ?? Data(), as: UTF8.self)
    }

    private func assertMigrated(file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try storage.string(for: "API_TOKEN"), "tok_4f9a8b7c6d5e4f3a2b1c", file: file, line: line)
        XCTAssertEqual(try storage.string(for: "DB_PASSWORD"), "hunter2 with spaces", file: file, line: line)
        XCTAssertFalse(try storage.contains("THEME"), file: file, line: line)
        XCTAssertEqual(
            try storage.allKeys().sorted(), ["API_TOKEN", "DB_PASSWORD"], "no duplicates", file: file, line: line)
        XCTAssertEqual(sourceText, "# app settings\nTHEME=dark\n", file: file, line: line)
        let mode = try XCTUnwrap(
            FileManager.default.attributesOfItem(atPath: source.path)[.posixPermissions] as? NSNumber
        ).intValue
        XCTAssertEqual(mode, 0o640, "permissions kept", file: file, line: line)
    }

    func testPlanShowsKeysWithoutValuesAndChangesNothing() throws {
        let plan = try migration().plan()
        XCTAssertEqual(plan.items.map(\.key), ["API_TOKEN", "DB_PASSWORD"])
        XCTAssertEqual(plan.items.map(\.account), ["API_TOKEN", "DB_PASSWORD"])
        XCTAssertEqual(plan.untouchedKeys, 1)
        XCTAssertEqual(plan.format, .dotEnv)
        XCTAssertFalse("\(plan)".contains("hunter2"), "no values in the plan")
        XCTAssertEqual(sourceText, env)
        XCTAssertEqual(try storage.allKeys(), [])
    }

    func testRunMigratesVerifiesAndScrubs() throws {
        let report = try migration().run()
        XCTAssertEqual(report.migratedKeys, ["API_TOKEN", "DB_PASSWORD"])
        XCTAssertTrue(report.sourceScrubbed)
        XCTAssertTrue(report.recommendation.contains("Rotate"))
        try assertMigrated()
        XCTAssertEqual(try storage.protection(of: "API_TOKEN"), .afterFirstUnlockThisDeviceOnly)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: source.path + ".pre-migration"), "no backup copy unless asked")

        let again = try migration().run()
        XCTAssertEqual(again.migratedKeys, [], "a second run finds the job done")
        try assertMigrated()
    }

    func testEveryStepResumesAfterACrash() throws {
        for step in SourceMigration.Step.allCases where step != .done {
            try super.tearDownWithError()
            try setUpWithError()
            XCTAssertThrowsError(try migration(stopAfter: step).run(), "\(step)")
            if [.planned, .imported, .verified].contains(step) {
                XCTAssertEqual(
                    sourceText, env, "\(step): the source is untouched before verification finished and the scrub ran")
            }
            let resumed = try migration().run()
            XCTAssertTrue(resumed.resumed || step == .scrubbed, "\(step)")
            try assertMigrated()
        }
    }

    func testCrashBetweenScrubAndItsRecordFinishesTheBookkeeping() throws {
        // Do what run() does up to the rename — record the scrubbed hash, replace the file — then "crash".
        var migration = migration()
        migration.afterStep = { step in if step == .verified { throw SimulatedCrash() } }
        XCTAssertThrowsError(try migration.run())
        let journals = MigrationJournalStore(accessGroup: nil)
        var record = try XCTUnwrap(journals.load(source.path))
        XCTAssertEqual(record.state, .verified)
        let document = try SourceParser.parse(Data(env.utf8), format: .dotEnv, file: source.path)
        let cleaned = try document.removing(Set(record.keys))
        record.scrubbedHash = MigrationJournal.hash(cleaned)
        try journals.save(record, for: source.path)
        try SourceFileRewriter.replace(source.path, with: cleaned)

        let finished = try self.migration().run()
        XCTAssertTrue(finished.resumed)
        XCTAssertTrue(finished.sourceScrubbed)
        XCTAssertEqual(try journals.load(source.path)?.state, .done)
        try assertMigrated()
    }

    func testLockedKeychainLeavesTheSourceUntouched() throws {
        try lockWithPassphrase()
        let locked = SourceMigration(file: source, service: "com.acme.app", sensitivity: .secret)
        XCTAssertThrowsError(try locked.run()) { error in
            guard let error = error as? MigrationError, error.code == .keychain, error.keychainError == .locked else {
                return XCTFail("\(error)")
            }
        }
        XCTAssertEqual(sourceText, env)
        try unlock()
        try SourceMigration(file: source, service: "com.acme.app", sensitivity: .secret).run()
        XCTAssertEqual(try storage.string(for: "API_TOKEN"), "tok_4f9a8b7c6d5e4f3a2b1c")
    }

    func testKeepSourceBackupCopyAndConflicts() throws {
        try storage.set("something else", for: "API_TOKEN")
        XCTAssertThrowsError(try migration().run()) { error in
            guard let error = error as? MigrationError, error.code == .conflict, let key = error.key else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(key, "API_TOKEN")
        }
        XCTAssertEqual(sourceText, env)
        XCTAssertEqual(try storage.string(for: "API_TOKEN"), "something else", "never overwritten")
        _ = try storage.removeValue(for: "API_TOKEN")

        let kept = try migration(KeySelection(names: ["DB_PASSWORD"])).run(keepSource: true)
        XCTAssertFalse(kept.sourceScrubbed)
        XCTAssertEqual(sourceText, env)
        XCTAssertEqual(try storage.allKeys(), ["DB_PASSWORD"])

        try FileManager.default.removeItem(at: source)
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: source.path, contents: Data(env.utf8), attributes: [.posixPermissions: 0o600]))
        try migration(KeySelection(names: ["API_TOKEN"])).run(keepBackupCopy: true)
        XCTAssertEqual(FileManager.default.contents(atPath: source.path + ".pre-migration"), Data(env.utf8))
        XCTAssertFalse(sourceText.contains("API_TOKEN"))
    }

    func testMalformedSourceAndUnknownKeysChangeNothing() throws {
        try Data("GOOD=1\nthis line is broken\n".utf8).write(to: source)
        XCTAssertThrowsError(try migration().run()) { error in
            XCTAssertTrue("\(error)".contains("app.env:2"), "\(error)")
        }
        try Data(env.utf8).write(to: source)
        XCTAssertThrowsError(try migration(KeySelection(names: ["MISSING"])).run()) { error in
            guard let error = error as? MigrationError, error.code == .unknownKey, let key = error.key else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(key, "MISSING")
        }
        XCTAssertEqual(sourceText, env)
        XCTAssertEqual(try storage.allKeys(), [])
    }

    func testReverifiesBeforeScrubbingAndChecksConflictsOnResume() throws {
        var stopped = migration()
        stopped.afterStep = { step in if step == .verified { throw SimulatedCrash() } }
        XCTAssertThrowsError(try stopped.run())
        _ = try storage.removeValue(for: "DB_PASSWORD")  // the keychain changed since it was verified
        XCTAssertThrowsError(try migration().run()) { error in
            guard let error = error as? MigrationError, error.code == .verificationFailed, error.key == "DB_PASSWORD"
            else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(sourceText, env, "nothing removed on a stale verification")

        try tearDownWithError()
        try setUpWithError()
        var planned = migration()
        planned.afterStep = { step in if step == .planned { throw SimulatedCrash() } }
        XCTAssertThrowsError(try planned.run())
        try storage.set("written by someone else", for: "API_TOKEN")
        XCTAssertThrowsError(try migration().run()) { error in
            guard let error = error as? MigrationError, error.code == .conflict, error.key == "API_TOKEN" else {
                return XCTFail("\(error)")
            }
        }
        XCTAssertEqual(
            try storage.string(for: "API_TOKEN"), "written by someone else", "a resumed run never overwrites")
        XCTAssertThrowsError(try SourceMigration(file: source, service: "elsewhere").run()) { error in
            guard let error = error as? MigrationError, error.code == .interruptedMigrationPending,
                error.service == "com.acme.app"
            else { return XCTFail("\(error)") }
        }
    }

    func testLaterRunsWithANewSelectionAndEmptySelections() throws {
        try migration(KeySelection(names: ["API_TOKEN"])).run()
        XCTAssertEqual(try storage.allKeys(), ["API_TOKEN"])
        let second = try migration(KeySelection(names: ["DB_PASSWORD"])).run()
        XCTAssertEqual(second.migratedKeys, ["DB_PASSWORD"], "a finished migration does not hide a new selection")
        XCTAssertEqual(sourceText, "# app settings\nTHEME=dark\n")
        let nothing = try migration(KeySelection(patterns: ["NO_SUCH_*"])).run()
        XCTAssertTrue(nothing.migratedKeys.isEmpty)
        XCTAssertEqual(sourceText, "# app settings\nTHEME=dark\n", "an empty selection leaves the file alone")
        XCTAssertEqual(SourceMigration(file: URL(fileURLWithPath: "/x/.env.production")).service, ".env.production")
        XCTAssertEqual(SourceMigration(file: URL(fileURLWithPath: "/x/com.acme.app.plist")).service, "com.acme.app")
    }

    func testLinkedSourcesAreRefused() throws {
        let link = directory.appendingPathComponent("link.env")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: source)
        XCTAssertThrowsError(try SourceMigration(file: link).run()) { error in
            XCTAssertTrue("\(error)".contains("symbolic link"), "\(error)")
        }
        let hard = directory.appendingPathComponent("hard.env")
        try FileManager.default.linkItem(at: source, to: hard)
        XCTAssertThrowsError(try migration().run()) { error in
            XCTAssertTrue("\(error)".contains("hard links"), "\(error)")
        }
        XCTAssertEqual(sourceText, env)
    }

    func testSharedPreferencesWithAPendingBakFileIsRefused() throws {
        let prefs = directory.appendingPathComponent("auth.xml")
        try Data(
            """
            <?xml version='1.0' encoding='utf-8' standalone='yes' ?>
            <map>
                <string name="access_token">q83vASNFZ4mrze8BI0VniavN7wEjRWeJ</string>
                <int name="launches" value="3" />
            </map>
            """.utf8
        ).write(to: prefs)
        let bak = URL(fileURLWithPath: prefs.path + ".bak")
        try Data("pending".utf8).write(to: bak)
        XCTAssertThrowsError(try SourceMigration(file: prefs, service: "com.acme.app").plan()) { error in
            XCTAssertTrue("\(error)".contains(".bak exists"), "\(error)")
        }
        try FileManager.default.removeItem(at: bak)
        try SourceMigration(file: prefs, service: "com.acme.app").run()
        XCTAssertEqual(try storage.string(for: "access_token"), "q83vASNFZ4mrze8BI0VniavN7wEjRWeJ")
        let rest = String(decoding: try Data(contentsOf: prefs), as: UTF8.self)
        XCTAssertTrue(rest.contains("<int name=\"launches\" value=\"3\" />"))
        XCTAssertFalse(rest.contains("access_token"))
    }
}
#endif
