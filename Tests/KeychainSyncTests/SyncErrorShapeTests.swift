import Foundation
@testable import KeychainSync
import XCTest

/// SyncError's shape: extensible codes that `catch` can match, and messages that live in one
/// file and never take secret data.
final class SyncErrorShapeTests: XCTestCase {
    private struct OtherError: Error {}

    private func failing(_ error: any Error) throws {
        throw error
    }

    func testACatchMatchesACodeAmongOtherErrors() {
        func outcome(of error: any Error) -> String {
            do {
                try failing(error)
                return "none"
            } catch SyncError.Code.serverUnreachable {
                return "offline"
            } catch SyncError.Code.tampered {
                return "tampered"
            } catch {
                return "other"
            }
        }
        XCTAssertEqual(outcome(of: SyncError.connectionLost(reason: "the server closed the connection")), "offline")
        XCTAssertEqual(outcome(of: SyncError.pushRaceLost(attempts: 16)), "offline")
        XCTAssertEqual(outcome(of: SyncError.tampered("a malformed manifest")), "tampered")
        XCTAssertEqual(
            outcome(of: SyncError.statementRefused(sqlState: "42P01", reason: "no table")), "other",
            "serverRejected is another code")
        XCTAssertEqual(outcome(of: OtherError()), "other")
    }

    func testACodeOfALaterVersionIsCarriedAndDescribedByItsName() {
        let code = SyncError.Code(rawValue: "quotaExceeded")
        let error = SyncError(code, "The circle's quota is used up.")
        XCTAssertEqual(error.description, "quotaExceeded: The circle's quota is used up.")
        XCTAssertEqual(code.description, "quotaExceeded")
        XCTAssertNotEqual(code, .serverUnreachable)
        XCTAssertFalse(SyncError.Code.serverUnreachable ~= error)
        XCTAssertTrue(SyncError.Code(rawValue: "quotaExceeded") ~= error, "codes are equal by name")
        XCTAssertEqual(SyncError.Code(rawValue: "serverUnreachable"), .serverUnreachable)
    }

    func testTheFactoriesKeepTheirCodeAndItsData() {
        let refused = SyncError.statementRefused(sqlState: "53100", reason: "disk full")
        XCTAssertEqual(refused.code, .serverRejected)
        XCTAssertEqual(refused.sqlState, "53100")
        XCTAssertEqual(
            refused.description, "serverRejected: The sync server refused a statement (SQLSTATE 53100): disk full")
        XCTAssertEqual(SyncError.staleRecordVersion(marker: "stale").sqlState, "stale")
        XCTAssertEqual(
            SyncError.circleCodeLength(10, expected: 56).message,
            "That is not a circle code: it has 10 letters and digits, and a circle code has 56 (14 groups of four, dashes optional). Nothing was sent to the server. Copy the circle code again from `keychain sync status` on a device of the circle."
        )
    }

    /// KeychainSync's source files.
    private func sources() throws -> [URL] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Sources/KeychainSync")
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil).filter {
            $0.pathExtension == "swift"
        }
    }

    /// Every message is a factory of SyncError+Messages.swift: no other file writes one.
    func testNoMessageIsWrittenOutsideTheMessagesFile() throws {
        let exempt: Set<String> = ["SyncError+Messages.swift", "SyncError.swift"]
        let files = try sources()
        XCTAssertGreaterThan(files.count, 30)
        for file in files where !exempt.contains(file.lastPathComponent) {
            let text = try String(contentsOf: file, encoding: .utf8)
            XCTAssertNil(
                text.range(of: #"SyncError\(\s*\.\w+\s*,"#, options: .regularExpression),
                "\(file.lastPathComponent) writes a message inline")
        }
    }

    /// A factory's parameters are of the types its message may show: texts made safe, counts and
    /// generations; never data, keys, items or codes (whose types are not among these).
    func testNoFactoryTakesSecretData() throws {
        let file = try XCTUnwrap(try sources().first { $0.lastPathComponent == "SyncError+Messages.swift" })
        let text = try String(contentsOf: file, encoding: .utf8)
        let signature = try NSRegularExpression(pattern: #"static func \w+\(([^)]*)\)"#)
        let matches = signature.matches(in: text, range: NSRange(text.startIndex..., in: text))
        XCTAssertGreaterThan(matches.count, 10)
        let shown: Set<String> = ["String", "Int", "UInt32"]
        let secretNames = [
            "code", "password", "passphrase", "secret", "key", "data", "item", "value", "token", "connectionString"
        ]
        for match in matches {
            let parameters = String(text[Range(match.range(at: 1), in: text)!])
            for parameter in parameters.split(separator: ",") {
                let parts = parameter.split(separator: ":").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                XCTAssertEqual(parts.count, 2, parameters)
                XCTAssertTrue(shown.contains(parts.last ?? ""), "\(parameters): a factory takes only \(shown.sorted())")
                let names = (parts.first ?? "").split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
                for name in names where name != "_" {
                    XCTAssertFalse(
                        secretNames.contains { name.contains($0.lowercased()) },
                        "\(parameters): a parameter named for secret data")
                }
            }
        }
    }
}
