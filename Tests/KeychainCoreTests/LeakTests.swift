import Foundation
import SecureStorageFoundation
import Logging
import XCTest
@testable import KeychainCore

/// Secrets never show up in logs (trace level), error messages, `description`/`dump` of public
/// types, or any file but in encrypted form.
final class LeakTests: XCTestCase {
    private static let canary = "LEAK-CANARY-7f3a9c"
    private static let passphrase = "PASSPHRASE-CANARY-41d2"

    /// Every log line of the test process, captured at trace level (bootstrapped once).
    private static let captured: Locked<[String]> = {
        let lines = Locked<[String]>([])
        LoggingSystem.bootstrap { label in CapturingHandler(label: label, lines: lines) }
        return lines
    }()

    private struct CapturingHandler: LogHandler {
        let label: String
        let lines: Locked<[String]>
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let error = event.error.map { " error: \($0)" } ?? ""
            lines.withLock { $0.append("\(event.level) \(label) \(event.message) \(all)\(error)") }
        }
    }

    /// Whether `text` shows `secret` as text, hex, Base64, or as the decimal byte list `dump` prints for `Data`.
    private static func reveals(_ text: String, _ secret: String) -> Bool {
        let bytes = Array(secret.utf8)
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        if text.contains(secret) || text.lowercased().contains(hex) || text.contains(Data(bytes).base64EncodedString())
        {
            return true
        }
        let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return numbers.count >= bytes.count
            && (0...(numbers.count - bytes.count)).contains { start in
                numbers[start..<start + bytes.count].elementsEqual(bytes.map(Int.init))
            }
    }

    func testLogsErrorsDescriptionsAndFilesNeverHoldSecrets() throws {
        _ = Self.captured
        // The engine logs only to a logger the application gives it (LibraryLogging).
        LibraryLogging.logger = Logger(label: "leak-test")
        defer { LibraryLogging.disable() }
        let test = try TestKeychain()
        var errors: [String] = []
        func attempt(_ body: () throws -> Void) {
            do { try body() } catch {
                errors.append("\(error)")
                errors.append(String(reflecting: error))
            }
        }
        let secret = Data(Self.canary.utf8)
        let item = NewItem(
            .genericPassword, attributes: [.service: "svc", .account: "acct"], data: secret,
            accessibility: .whenUnlocked)
        try test.keychain.setPassphrase(Self.passphrase)
        try test.keychain.add(item)
        attempt { try test.keychain.add(item) }  // duplicate
        let found = try XCTUnwrap(test.keychain.find(Query(.genericPassword, [.service: "svc"]), returning: .all).first)
        XCTAssertEqual(found.data, secret)
        let changes = ItemChanges(data: secret + Data("-2".utf8))
        try test.keychain.update(Query(.genericPassword, [.service: "svc"]), with: changes)
        try test.keychain.addOrUpdate(item)
        try test.keychain.lock()
        attempt { _ = try test.keychain.find(Query(.genericPassword, [.service: "svc"]), returning: .data) }  // locked
        attempt { try test.keychain.unlock(passphrase: Self.passphrase + "-wrong") }
        attempt { try test.keychain.changePassphrase(from: Self.passphrase + "-wrong", to: Self.canary) }
        try test.keychain.unlock(passphrase: Self.passphrase, keepingSessionFor: .seconds(60))
        let backup = test.directory.appendingPathComponent("backup")
        try test.keychain.exportBackup(to: backup, passphrase: Self.passphrase)
        attempt { try test.keychain.importBackup(from: backup, passphrase: Self.canary) }  // wrong backup passphrase
        try test.tamper { db in try db.execute(sql: "UPDATE items SET secret = zeroblob(length(secret))") }
        // tampered
        attempt { _ = try test.keychain.find(Query(.genericPassword, [.service: "svc"]), returning: .data) }
        let report = try test.keychain.verify()
        XCTAssertFalse(report.isClean)

        var shown = errors + report.damagedItems.map(\.description)
        for value in [found as Any, item, changes, report] {
            shown.append(String(describing: value))
            shown.append(String(reflecting: value))
            var dumped = ""
            dump(value, to: &dumped)
            shown.append(dumped)
        }
        shown += Self.captured.withLock { $0 }
        XCTAssertFalse(Self.captured.withLock { $0 }.isEmpty, "logging was captured")
        for text in shown {
            XCTAssertFalse(Self.reveals(text, Self.canary), "a secret leaked: \(text)")
            XCTAssertFalse(Self.reveals(text, Self.passphrase), "a passphrase leaked: \(text)")
        }
        var plainData = ""
        dump(secret, to: &plainData)
        XCTAssertTrue(Self.reveals(plainData, Self.canary), "the check sees a dumped Data's bytes")

        // On disk the secret and the passphrase exist only encrypted: no file holds them in clear.
        let files =
            FileManager.default.enumerator(at: test.directory, includingPropertiesForKeys: nil)?.compactMap {
                $0 as? URL
            } ?? []
        XCTAssertGreaterThanOrEqual(files.count, 4, "database, device key, unlock ticket and backup were written")
        for file in files where !file.hasDirectoryPath {
            let bytes = (try? Data(contentsOf: file)) ?? Data()
            XCTAssertNil(bytes.range(of: secret), "\(file.lastPathComponent) holds the secret in clear")
            XCTAssertNil(
                bytes.range(of: Data(Self.passphrase.utf8)), "\(file.lastPathComponent) holds the passphrase in clear")
        }
    }
}
