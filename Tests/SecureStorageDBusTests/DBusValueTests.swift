import SecureStorageDBus
import XCTest

final class DBusValueTests: XCTestCase {
    func testSignaturesOfContainers() {
        let attributes = DBusValue.stringDictionary(["service": "svc", "username": "alice"])
        XCTAssertEqual(attributes.signature, "a{ss}")
        let secret = DBusValue.structure([
            .objectPath("/org/freedesktop/secrets/session/1"), .array(elementSignature: "y", []),
            .array(elementSignature: "y", [.byte(1)]), .string("text/plain")
        ])
        XCTAssertEqual(secret.signature, "(oayays)")
        XCTAssertEqual(DBusValue.variant(.uint64(1)).signature, "v")
        XCTAssertEqual(DBusValue.objectPaths([]).signature, "ao")
    }

    func testStringDictionaryIsSortedByKey() {
        guard case .dictionary(_, _, let entries) = DBusValue.stringDictionary(["b": "2", "a": "1"]) else {
            return XCTFail("not a dictionary")
        }
        XCTAssertEqual(entries.map(\.key), [.string("a"), .string("b")])
    }

    func testUnwrappingNestedVariants() {
        XCTAssertEqual(DBusValue.variant(.variant(.string("x"))).unwrappingVariant, .string("x"))
        XCTAssertEqual(DBusValue.variant(.objectPath("/a")).unwrappingVariant.stringValue, "/a")
    }
}
