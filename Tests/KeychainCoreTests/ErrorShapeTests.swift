import Foundation
import XCTest
@testable import KeychainCore

/// KeychainError's codes are extensible (issue 36): a `catch` on a code matches every message of
/// it, a code a later version adds still has a status and a description, and the messages live
/// in factories that take nothing secret.
final class ErrorShapeTests: XCTestCase {
    func testCatchOnACodeMatchesWhateverTheMessage() throws {
        let test = try TestKeychain()
        var caught: String?
        do {
            _ = try JSONSerialization.data(withJSONObject: ["ok": true])
            _ = try test.keychain.find(query("svc", "missing"), returning: .data)
        } catch KeychainError.Code.duplicateItem {
            caught = "duplicate"
        } catch KeychainError.Code.itemNotFound {
            caught = "not found"
        } catch {
            caught = "other: \(error)"
        }
        XCTAssertEqual(caught, "not found")
        caught = nil
        do throws(KeychainError) {
            try test.keychain.add(password("svc", "me"))
            try test.keychain.add(password("svc", "me"))
        } catch .itemNotFound {
            caught = "not found"
        } catch .duplicateItem {
            caught = "duplicate"
        } catch {
            caught = "other: \(error)"
        }
        XCTAssertEqual(caught, "duplicate")
        XCTAssertFalse(
            KeychainError.Code.itemNotFound ~= CocoaError(.fileNoSuchFile), "another error type never matches")
    }

    func testAnUnknownCodeHasADescriptionAndTheInternalComponentStatus() {
        let future = KeychainError.Code(rawValue: "quotaExceeded")
        XCTAssertEqual(future.description, "quotaExceeded")
        XCTAssertEqual(future.osStatus, -26276, "errSecInternalComponent for a code this version does not know")
        XCTAssertFalse(KeychainError.Code.allCases.contains(future))
        let error = KeychainError(future, "The quota is used up.")
        XCTAssertEqual(error.osStatus, -26276)
        XCTAssertEqual(error.description, "The quota is used up. (OSStatus -26276)")
        XCTAssertTrue(future ~= error)
        XCTAssertFalse(KeychainError.Code.busy ~= error)
    }

    func testKnownCodesKeepTheirNamesAndStatuses() {
        let expected: [String: Int32] = [
            "itemNotFound": -25300, "duplicateItem": -25299, "interactionNotAllowed": -25308, "authFailed": -25293,
            "userCanceled": -128, "invalidParameter": -50, "noSuchAttribute": -25303, "noSuchClass": -25306,
            "missingEntitlement": -34018, "unimplemented": -4, "invalidState": -909, "integrityViolation": -26275,
            "keychainUnavailable": -25291, "diskFull": -25291, "busy": -25291, "invalidKeychain": -25295,
            "unsupportedVersion": -25310, "readOnly": -25292, "ioError": -36, "outOfMemory": -108,
            "noSuchKeychain": -25294, "duplicateKeychain": -25296
        ]
        XCTAssertEqual(KeychainError.Code.allCases.count, expected.count)
        XCTAssertEqual(Set(KeychainError.Code.allCases.map(\.rawValue)), Set(expected.keys))
        for code in KeychainError.Code.allCases {
            XCTAssertEqual(code.osStatus, expected[code.rawValue], code.rawValue)
            XCTAssertEqual(
                KeychainError.Code(rawValue: code.rawValue), code, "a code made from its name is the same code")
        }
        XCTAssertEqual(KeychainError.Code.itemNotFound.rawValue, "itemNotFound")
    }

    /// Every factory in the files that hold KeychainError's messages takes parameters of types that
    /// cannot hold a secret, under names that do not say secret, and interpolates nothing else
    /// than its parameters (directly, in `String(_:radix:)` or in a closure over one) and a few
    /// named constants.
    func testMessageFactoriesTakeNothingSecret() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = [
            "KeychainCore/Errors/KeychainError+Messages.swift", "KeychainServices/KeychainError+ServicesMessages.swift",
            "keychain/KeychainError+ToolMessages.swift"
        ]
        let allowedTypes: Set<String> = [
            "String", "String?", "Int", "some BinaryInteger", "Bool", "any Error", "Any", "Any.Type", "[String]",
            "Accessibility", "AccessPolicy", "AttributeKey", "Set<AuthenticationMethod>", "ScryptParameters",
            "TPMFailure", "LibraryOwner"
        ]
        let secretWords = [
            "passphrase", "secret", "password", "data", "value", "pin", "plaintext", "keymaterial", "bytes"
        ]
        let constants = ["TPMDevice.", "KeychainSchema.", "PlatformIO.", "BackupFormat.", "KernelKeyring."]
        // A factory's signature and body as written, however swift-format wrapped them.
        let signature = try NSRegularExpression(
            pattern: #"static func (\w+)\(([^)]*)\)\s*-> KeychainError \{\s*"#
                + #"(?:KeychainError\(\s*\.\w+,\s*|tampered\(\s*|backupTampered\(\s*source: source,\s*what:\s*)"#
                + #"(".*?")\s*\)\s*\}"#
        )
        var factories = 0
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in signature.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                factories += 1
                let name = String(text[Range(match.range(at: 1), in: text)!])
                let parameters = String(text[Range(match.range(at: 2), in: text)!])
                let message = String(text[Range(match.range(at: 3), in: text)!])
                var labels: [String] = []
                for parameter in parameters.split(separator: ",", omittingEmptySubsequences: true) {
                    let parts = parameter.split(separator: ":", maxSplits: 1).map {
                        $0.trimmingCharacters(in: .whitespacesAndNewlines)
                    }
                    XCTAssertEqual(parts.count, 2, "\(name): \(parameter)")
                    let label = parts[0].split(separator: " ").last.map(String.init) ?? parts[0]
                    labels.append(label)
                    XCTAssertTrue(
                        allowedTypes.contains(parts[1]),
                        "\(file) \(name): parameter \(label) has type \(parts[1]), which could hold a secret")
                    XCTAssertFalse(
                        secretWords.contains(label.lowercased()), "\(file) \(name): parameter \(label) names a secret")
                }
                var rest = Substring(message)
                while let start = rest.range(of: #"\("#) {
                    let interpolated = rest[start.upperBound...]
                    XCTAssertTrue(
                        labels.contains { interpolated.hasPrefix($0) || interpolated.hasPrefix("String(\($0)") }
                            || constants.contains { interpolated.hasPrefix($0) } || interpolated.hasPrefix("$0)"),
                        "\(file) \(name) interpolates something else than its parameters: \(interpolated.prefix(40))")
                    rest = interpolated
                }
            }
        }
        XCTAssertGreaterThan(factories, 350, "the factories were found")
    }
}
