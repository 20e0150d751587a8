import Foundation
import XCTest

@testable import KeychainCore

/// `GnomeKeyringImport` in process, on textual keyrings the test writes (the CLI suite
/// `GnomeKeyringMigrationTests` covers files the real daemon wrote): a run stopped after some
/// items resumes, the journal keeps each duplicate's account, and malformed textual files get
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
        XCTAssertEqual(report.items.map(\.account), ["alice", "alice (gnome-keyring login/2)", ""])
        let found = try XCTUnwrap(
            try test.keychain.findFirst(
                Query(.genericPassword, [.service: .string("svc"), .account: .string("alice (gnome-keyring login/2)")]),
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

    func testTheJournalKeepsADuplicatesAccountWhenTheKeyringChanges() throws {
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
        XCTAssertEqual(plan.map(\.account), ["alice (gnome-keyring login/2)", "alice"])
        XCTAssertEqual(plan.map(\.action), [.skip, .conflict], "item 2 kept its account; alice holds item 1's secret")
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
