import Foundation
import KeychainCore
import SecureStorageFoundation
import XCTest

/// `SecretServiceAttributes`, the `a{ss}` codec stored in kSecAttrGeneric that
/// `keychain migrate --from gnome-keyring` and the Secret Service provider share: one encoding
/// per map, and a precise `.invalidParameter` for every malformed input.
final class SecretServiceAttributesTests: XCTestCase {
    func testRoundTripKeepsEveryPairIncludingEmptyAndNonASCII() throws {
        let pairs = ["service": "svc", "username": "alice", "": "empty name", "note": "", "schlüssel": "wert ✓"]
        let decoded = try SecretServiceAttributes.decode(SecretServiceAttributes(pairs).encoded())
        XCTAssertEqual(decoded.pairs, pairs)
        XCTAssertEqual(try SecretServiceAttributes.decode(SecretServiceAttributes([:]).encoded()).pairs, [:])
    }

    func testEncodingIsTheDocumentedLayoutSortedByUTF8Bytes() {
        // "B" (0x42) sorts before "a" (0x61) by bytes.
        let data = SecretServiceAttributes(["a": "1", "B": "22"]).encoded()
        var expected: [UInt8] = Array("SSA".utf8) + [1, 0, 0, 0, 2]
        expected += [0, 0, 0, 1] + Array("B".utf8) + [0, 0, 0, 2] + Array("22".utf8)
        expected += [0, 0, 0, 1] + Array("a".utf8) + [0, 0, 0, 1] + Array("1".utf8)
        XCTAssertEqual(Array(data), expected)
        // The same map built in another order encodes the same.
        var other = SecretServiceAttributes([:])
        other.pairs["B"] = "22"
        other.pairs["a"] = "1"
        XCTAssertEqual(other.encoded(), data)
    }

    func testMalformedInputsGetPreciseErrors() {
        let good = Array(SecretServiceAttributes(["a": "1", "b": "2"]).encoded())
        var cases: [(String, [UInt8], String)] = [
            ("empty", [], "SSA magic"),
            ("wrong magic", Array("XYZ".utf8) + good.dropFirst(3), "SSA magic"),
            ("version 2", Array(good.prefix(3)) + [2] + good.dropFirst(4), "version is not 1"),
            ("no count", Array(good.prefix(5)), "before the pair count"),
            ("cut short", Array(good.dropLast()), "pair 2 is cut short"),
            ("trailing", good + [0], "bytes follow its last pair"),
            ("huge count", Array(good.prefix(4)) + [0xFF, 0xFF, 0xFF, 0xFF] + good.dropFirst(8), "pair count exceeds")
        ]
        var swapped = Array("SSA".utf8) + [1, 0, 0, 0, 2]
        swapped += [0, 0, 0, 1, UInt8(ascii: "b"), 0, 0, 0, 0]
        swapped += [0, 0, 0, 1, UInt8(ascii: "a"), 0, 0, 0, 0]
        cases.append(("unsorted", swapped, "pair 2 is out of order"))
        var repeated = Array("SSA".utf8) + [1, 0, 0, 0, 2]
        repeated += [0, 0, 0, 1, UInt8(ascii: "a"), 0, 0, 0, 0]
        repeated += [0, 0, 0, 1, UInt8(ascii: "a"), 0, 0, 0, 0]
        cases.append(("repeated", repeated, "pair 2 is out of order or repeats"))
        var invalidUTF8 = Array("SSA".utf8) + [1, 0, 0, 0, 1]
        invalidUTF8 += [0, 0, 0, 1, 0xFF, 0, 0, 0, 0]
        cases.append(("invalid UTF-8", invalidUTF8, "pair 1 is cut short or not valid UTF-8"))
        for (name, bytes, fragment) in cases {
            XCTAssertThrowsError(try SecretServiceAttributes.decode(Data(bytes)), name) { error in
                guard let error = error as? KeychainError else { return XCTFail("\(name): \(error)") }
                XCTAssertEqual(error.code, .invalidParameter, name)
                XCTAssertTrue(error.message.contains(fragment), "\(name): \(error.message)")
                XCTAssertFalse(error.message.contains("alice"), name)
            }
        }
    }

    func testSizeBoundIsEnforcedBothWays() throws {
        let big = SecretServiceAttributes([
            "k": String(repeating: "x", count: SecretServiceAttributes.maximumEncodedSize)
        ])
        XCTAssertGreaterThan(big.encoded().count, SecretServiceAttributes.maximumEncodedSize)
        XCTAssertThrowsError(try big.encodedWithinBounds()) { error in
            XCTAssertEqual((error as? KeychainError)?.code, .invalidParameter)
            XCTAssertTrue((error as? KeychainError)?.message.contains("more than the 65536") ?? false)
        }
        XCTAssertThrowsError(try SecretServiceAttributes.decode(big.encoded())) { error in
            XCTAssertTrue((error as? KeychainError)?.message.contains("more than the 65536") ?? false)
        }
        let fits = SecretServiceAttributes(["k": String(repeating: "x", count: 65_000)])
        XCTAssertEqual(try SecretServiceAttributes.decode(fits.encodedWithinBounds()), fits)
    }

    /// The duplicate marker both writers use: a generic password with the service and account
    /// of another is refused as a duplicate unless its view hint differs, and with the prefix and
    /// a UUID it is kept, while a query naming only service and account (no view hint) finds
    /// both, the first one first.
    func testTheDuplicateViewHintTellsApartItemsOfTheSameServiceAndAccount() throws {
        XCTAssertEqual(SecretServiceAttributes.duplicateViewHintPrefix, "org.freedesktop.secrets.duplicate.")
        let test = try TestKeychain()
        let names: [AttributeKey: AttributeValue] = [.service: .string("svc"), .account: .string("alice")]
        _ = try test.keychain.add(NewItem(.genericPassword, attributes: names, data: Data("first".utf8)))
        XCTAssertThrowsError(
            try test.keychain.add(NewItem(.genericPassword, attributes: names, data: Data("second".utf8)))
        ) { error in XCTAssertEqual((error as? KeychainError)?.code, .duplicateItem) }
        let hint = SecretServiceAttributes.duplicateViewHintPrefix + UUID().uuidString.lowercased()
        _ = try test.keychain.add(
            NewItem(
                .genericPassword, attributes: names.merging([.syncViewHint: .string(hint)]) { $1 },
                data: Data("second".utf8)))
        let found = try test.keychain.findAll(Query(.genericPassword, names), returning: [.attributes, .data])
        XCTAssertEqual(found.map(\.data), [Data("first".utf8), Data("second".utf8)])
        XCTAssertEqual(found.map { $0.attributes[.syncViewHint]?.stringValue }, [nil, hint])
        XCTAssertEqual(found.map { $0.attributes[.account]?.stringValue }, ["alice", "alice"])
    }
}
