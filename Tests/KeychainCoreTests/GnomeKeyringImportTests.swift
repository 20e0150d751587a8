import Foundation
import XCTest
import SecureStorageFoundation

@testable import KeychainCore

/// `GnomeKeyringImport` in process, on textual keyrings the test writes (the CLI suite
/// `GnomeKeyringMigrationTests` covers files the real daemon wrote): a run stopped after some
/// items resumes, a duplicate keeps its service and account and gets a view hint that the
/// journal keeps, an overwrite replaces only its own item, and malformed textual files get
/// precise errors.
final class GnomeKeyringImportTests: XCTestCase {
    private struct Stop: Error {}

    /// A textual keyring of `items` (id, label, secret, attributes).
    private func textual(_ items: [(UInt32, String, String, [String: String])]) -> Data {
        var text = "[keyring]\ndisplay-name=Login\nctime=0\nmtime=0\n\n"
        for (id, label, secret, attributes) in items {
            text += "[\(id)]\nitem-type=0\ndisplay-name=\(label)\nsecret=\(secret)\nmtime=0\nctime=0\n\n"
            for (index, (name, value)) in attributes.sorted(by: { $0.key < $1.key }).enumerated() {
                text += "[\(id):attribute\(index)]\nname=\(name)\ntype=string\nvalue=\(value)\n\n"
            }
        }
        return Data(text.utf8)
    }

    private func source(_ contents: Data) throws -> GnomeKeyringImport.Source {
        let keyring = try GnomeKeyring.parse(contents, password: Data(), keyringName: "login")
        return GnomeKeyringImport.Source(
            name: "login", path: "/home/u/.local/share/keyrings/login.keyring", contents: contents, keyring: keyring)
    }

    private let alice = ["service": "svc", "username": "alice"]

    /// The view hint of item `id` of the login keyring as a duplicate, spelled out.
    private func duplicateHint(_ id: Int) -> String { "org.freedesktop.secrets.duplicate.gnome-keyring.login.\(id)" }

    private let svcAlice: [AttributeKey: AttributeValue] = [.service: .string("svc"), .account: .string("alice")]

    func testAStoppedRunResumesWhereItStopped() throws {
        let test = try TestKeychain()
        let file = textual([(1, "one", "s1", alice), (2, "two", "s2", alice), (3, "three", "s3", ["service": "other"])])
        var stopped = GnomeKeyringImport(sources: [try source(file)], overwrite: false)
        stopped.afterItem = { index throws(KeychainError) in if index == 1 { throw .itemNotFound() } }
        XCTAssertThrowsError(try stopped.run(in: test.keychain))
        XCTAssertEqual(try test.keychain.findAll(Query(.genericPassword)).count, 2, "two items written before the stop")

        let report = try GnomeKeyringImport(sources: [try source(file)], overwrite: false).run(in: test.keychain)
        XCTAssertEqual(report.items.map(\.action), [.skip, .skip, .importItem])
        XCTAssertTrue(report.resumed)
        let again = try GnomeKeyringImport(sources: [try source(file)], overwrite: false).run(in: test.keychain)
        XCTAssertFalse(again.resumed, "the second run finished the import")
        XCTAssertEqual(again.items.map(\.action), [.skip, .skip, .skip])
        XCTAssertEqual(report.items.map(\.account), ["alice", "alice", ""])
        XCTAssertEqual(report.items.map(\.viewHint), [nil, duplicateHint(2), nil])
        XCTAssertEqual(report.items.map(\.isDuplicate), [false, true, false])
        let found = try XCTUnwrap(
            try test.keychain.findFirst(
                Query(.genericPassword, svcAlice.merging([.syncViewHint: .string(duplicateHint(2))]) { $1 }),
                returning: [.data, .attributes]))
        XCTAssertEqual(found.data, Data("s2".utf8))
        XCTAssertEqual(
            try SecretServiceAttributes.decode(XCTUnwrap(found.attributes[.generic]?.dataValue)).pairs,
            alice.merging(["xdg:schema": "org.freedesktop.Secret.Generic"]) { $1 })
        XCTAssertNil(
            try test.keychain.findFirst(
                Query(.genericPassword, [.service: .string(GnomeKeyringImport.journalService)])),
            "the journal is library-owned: invisible to ordinary queries")
    }

    /// A query that names no view hint matches an item with one (the engine's semantics the
    /// tool's `-s svc -a alice` relies on): both items, the first one first.
    func testAQueryWithoutAViewHintFindsTheItemAndItsDuplicate() throws {
        let test = try TestKeychain()
        let file = textual([(1, "one", "s1", alice), (2, "two", "s2", alice)])
        _ = try GnomeKeyringImport(sources: [try source(file)], overwrite: false).run(in: test.keychain)
        let all = try test.keychain.findAll(Query(.genericPassword, svcAlice), returning: [.attributes, .data])
        XCTAssertEqual(all.map(\.data), [Data("s1".utf8), Data("s2".utf8)])
        XCTAssertEqual(all.map { $0.attributes[.syncViewHint]?.stringValue }, [nil, duplicateHint(2)])
        XCTAssertEqual(
            try test.keychain.findFirst(Query(.genericPassword, svcAlice, limit: .one), returning: [.data])?.data,
            Data("s1".utf8))
        XCTAssertEqual(try test.keychain.delete(Query(.genericPassword, svcAlice)), 2)
    }

    /// The first item changed in the keyring: a run reports a conflict for it alone, and
    /// `--overwrite` replaces it and leaves its duplicate (same service and account) as it was.
    func testOverwritingTheFirstItemLeavesItsDuplicate() throws {
        let test = try TestKeychain()
        let first = textual([(1, "one", "s1", alice), (2, "two", "s2", alice)])
        _ = try GnomeKeyringImport(sources: [try source(first)], overwrite: false).run(in: test.keychain)
        let changed = textual([(1, "one", "s1-new", alice), (2, "two", "s2", alice)])
        let plan = try GnomeKeyringImport(sources: [try source(changed)], overwrite: false).plan(in: test.keychain)
        XCTAssertEqual(plan.map(\.action), [.conflict, .skip])
        let report = try GnomeKeyringImport(sources: [try source(changed)], overwrite: true).run(in: test.keychain)
        XCTAssertEqual(report.items.map(\.action), [.overwrite, .skip])
        let all = try test.keychain.findAll(Query(.genericPassword, svcAlice), returning: [.attributes, .data])
        XCTAssertEqual(all.map(\.data), [Data("s1-new".utf8), Data("s2".utf8)])
        XCTAssertEqual(all.map { $0.attributes[.syncViewHint]?.stringValue }, [nil, duplicateHint(2)])
        // The duplicate changed instead: only it is overwritten.
        let changedDuplicate = textual([(1, "one", "s1-new", alice), (2, "two", "s2-new", alice)])
        let again = try GnomeKeyringImport(sources: [try source(changedDuplicate)], overwrite: true)
            .run(in: test.keychain)
        XCTAssertEqual(again.items.map(\.action), [.skip, .overwrite])
        XCTAssertEqual(
            try test.keychain.findAll(Query(.genericPassword, svcAlice), returning: [.data]).map(\.data),
            [Data("s1-new".utf8), Data("s2-new".utf8)])
    }

    /// The duplicate view hint names the keyring and item, with every byte of the name that
    /// is not a letter, digit, `-` or `_` escaped, so two keyrings never share one.
    func testTheDuplicateViewHintIsDeterministicAndEscaped() {
        XCTAssertEqual(GnomeKeyringImport.duplicateViewHint(keyring: "login", itemID: 7), duplicateHint(7))
        XCTAssertEqual(
            GnomeKeyringImport.duplicateViewHint(keyring: "my.keys ✓%", itemID: 42),
            "org.freedesktop.secrets.duplicate.gnome-keyring.my%2Ekeys%20%E2%9C%93%25.42")
        XCTAssertNotEqual(
            GnomeKeyringImport.duplicateViewHint(keyring: "a.1", itemID: 2),
            GnomeKeyringImport.duplicateViewHint(keyring: "a", itemID: 1), "a.1/2 is not a/1 followed by .2")
        XCTAssertTrue(
            GnomeKeyringImport.duplicateViewHint(keyring: "Work_2-x", itemID: 0)
                .hasPrefix(SecretServiceAttributes.duplicateViewHintPrefix + "gnome-keyring.Work_2-x.0"))
    }

    /// A journal of the first format (item ids with accounts) is not read as view hints.
    func testAJournalOfTheAccountFormatIsRefused() {
        var writer = ByteWriter()
        writer.append(UInt8(1))
        writer.appendLengthPrefixed(Data(repeating: 7, count: 32))
        writer.append(UInt8(0))
        writer.append(bigEndian: UInt32(1))
        writer.append(bigEndian: UInt32(2))
        writer.appendLengthPrefixed("alice (gnome-keyring login/2)")
        XCTAssertNil(GnomeKeyringJournal(encoded: writer.data))
        let current = GnomeKeyringJournal(
            fileHash: Data(repeating: 7, count: 32), done: true, viewHints: [2: "x", 1: ""])
        XCTAssertEqual(GnomeKeyringJournal(encoded: current.encoded), current)
    }

    func testTheJournalKeepsADuplicatesViewHintWhenTheKeyringChanges() throws {
        let test = try TestKeychain()
        let first = textual([(1, "one", "s1", alice), (2, "two", "s2", alice)])
        let report = try GnomeKeyringImport(sources: [try source(first)], overwrite: false).run(in: test.keychain)
        XCTAssertFalse(report.resumed)
        XCTAssertFalse("\(report.items)".contains("s1"), "descriptions never show a secret")
        var dumped = ""
        dump(report.items, to: &dumped)
        XCTAssertFalse(dumped.contains("s1") || dumped.contains("s2"), dumped)
        // Item 1 deleted in GNOME Keyring, item 5 added with the same attributes.
        let later = textual([(2, "two", "s2", alice), (5, "five", "s5", alice)])
        let plan = try GnomeKeyringImport(sources: [try source(later)], overwrite: false).plan(in: test.keychain)
        XCTAssertEqual(plan.map(\.account), ["alice", "alice"])
        XCTAssertEqual(plan.map(\.viewHint), [duplicateHint(2), nil])
        XCTAssertEqual(
            plan.map(\.action), [.skip, .conflict], "item 2 kept its view hint; the first slot holds item 1's secret")
        XCTAssertTrue("\(plan[0])".contains("svc / alice / vwht \(duplicateHint(2)) [skip]"), "\(plan[0])")
    }

    func testMalformedTextualKeyringsGetPreciseErrors() {
        let good = String(decoding: textual([(1, "one", "s1", alice)]), as: UTF8.self)
        let cases: [(String, String, String)] = [
            (
                "invalid escape", good.replacingOccurrences(of: "secret=s1", with: "secret=s\\q1"),
                "invalid escape sequence"
            ),
            ("group repeated", good + "[1]\n", "repeats the group 1"),
            (
                "key repeated", good.replacingOccurrences(of: "secret=s1", with: "secret=s1\nsecret=s2"),
                "repeats the key secret"
            ),
            ("item not a number", good.replacingOccurrences(of: "[1]", with: "[one]"), "[one] on line"),
            ("bad hex", good.replacingOccurrences(of: "secret=s1", with: "binary-secret=0g"), "not hexadecimal"),
            ("line outside groups", "garbage\n" + good, "neither the binary nor the textual"),
            ("not a line", good + "no equals sign\n", "neither a group nor a key=value pair")
        ]
        for (name, text, fragment) in cases {
            XCTAssertThrowsError(try GnomeKeyring.parse(Data(text.utf8), password: Data(), keyringName: "login"), name)
            {
                error in
                let error = error as? KeychainError
                XCTAssertEqual(error?.code, .invalidParameter, name)
                XCTAssertTrue(
                    error?.message.contains(fragment) ?? false, "\(name): \(String(describing: error?.message))")
                XCTAssertFalse(error?.message.contains("s1") ?? true, name)
            }
        }
    }

    func testAnOversizedFileIsRefusedBeforeParsing() {
        let huge = Data(count: GnomeKeyring.maximumFileSize + 1)
        XCTAssertThrowsError(try GnomeKeyring.parse(huge, password: Data(), keyringName: "login")) { error in
            XCTAssertTrue((error as? KeychainError)?.message.contains("more than the 16777216") ?? false)
        }
    }
}
