import SecureStorageDBus
import XCTest

/// The signature grammar, the name and path grammars, and the marshaller's alignment rules.
final class DBusSignatureTests: XCTestCase {
    func testCompleteTypesSplitASignature() throws {
        XCTAssertEqual(try DBusSignature.completeTypes(""), [])
        XCTAssertEqual(
            try DBusSignature.completeTypes("a{sv}s(oayays)aa{sa{sv}}vh"),
            ["a{sv}", "s", "(oayays)", "aa{sa{sv}}", "v", "h"])
        XCTAssertEqual(
            try DBusSignature.parseSingle("a{oa{sv}}"),
            .dictionary(key: .objectPath, value: .dictionary(key: .string, value: .variant)))
    }

    func testInvalidSignaturesAreRefusedWithTheirCode() {
        let invalid = [
            "a", "(", ")", "()", "(i", "a{", "a{s", "a{sv", "a{vs}", "a{(i)s}", "{sv}", "a{svs}", "z", "ai)", "a{sv}}"
        ]
        for signature in invalid {
            XCTAssertThrowsError(try DBusSignature.parse(signature), signature) { error in
                XCTAssertEqual((error as? DBusConnectionError)?.code, .invalidSignature, "\(signature): \(error)")
            }
        }
        XCTAssertThrowsError(try DBusSignature.parse(String(repeating: "y", count: 256))) { error in
            XCTAssertEqual((error as? DBusConnectionError)?.code, .invalidSignature)
        }
        XCTAssertNoThrow(try DBusSignature.parse(String(repeating: "y", count: 255)))
        XCTAssertNoThrow(try DBusSignature.parse(String(repeating: "a", count: 32) + "y"))
        XCTAssertThrowsError(try DBusSignature.parse(String(repeating: "a", count: 33) + "y")) { error in
            XCTAssertEqual((error as? DBusConnectionError)?.code, .nestingTooDeep)
        }
        XCTAssertThrowsError(try DBusSignature.parseSingle("ss")) { error in
            XCTAssertEqual((error as? DBusConnectionError)?.code, .invalidSignature)
        }
    }

    func testNamesAndPaths() {
        for path in ["/", "/a", "/org/freedesktop/secrets/collection/login", "/_1/A_b"] {
            XCTAssertTrue(DBusNames.isValidObjectPath(path), path)
        }
        for path in ["", "a", "/a/", "//", "/a//b", "/a-b", "/a.b", "/é"] {
            XCTAssertFalse(DBusNames.isValidObjectPath(path), path)
        }
        XCTAssertTrue(DBusNames.isValidBusName(":1.42"))
        XCTAssertTrue(DBusNames.isValidBusName("org.freedesktop.secrets"))
        XCTAssertTrue(DBusNames.isValidBusName("org.example-x.A_1"))
        for name in ["org", "org.", ".org", "1org.x", "org..x", "org.x y", String(repeating: "a.", count: 128) + "a"] {
            XCTAssertFalse(DBusNames.isValidBusName(name), name)
        }
        XCTAssertTrue(DBusNames.isValidInterfaceName("org.freedesktop.Secret.Service"))
        XCTAssertFalse(DBusNames.isValidInterfaceName("org.free-desktop.X"))
        XCTAssertTrue(DBusNames.isValidMemberName("GetSecrets"))
        XCTAssertFalse(DBusNames.isValidMemberName("Get.Secrets"))
        XCTAssertFalse(DBusNames.isValidMemberName("1Get"))
    }

    func testAlignmentAndArrayLengthExcludeLeadingPadding() throws {
        var marshaller = DBusMarshaller()
        try marshaller.append([.array(elementSignature: "t", [.uint64(2)])])
        // The length at 0 is 8: it excludes the 4 bytes of padding before the element at 8.
        XCTAssertEqual(marshaller.bytes, [8, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0])
        var empty = DBusMarshaller()
        try empty.append([.byte(1), .array(elementSignature: "(y)", [])])
        // An empty array of structures still pads to the element boundary after its length.
        XCTAssertEqual(empty.bytes, [1, 0, 0, 0, 0, 0, 0, 0])
        var strings = DBusMarshaller()
        try strings.append([.string("ab"), .signature("s"), .boolean(true)])
        XCTAssertEqual(strings.bytes, [2, 0, 0, 0, 97, 98, 0, 1, 115, 0, 0, 0, 1, 0, 0, 0])
        var reader = DBusUnmarshaller(bytes: marshaller.bytes)
        XCTAssertEqual(try reader.read([.array(.uint64)]), [.array(elementSignature: "t", [.uint64(2)])])
        XCTAssertTrue(reader.isAtEnd)
    }

    func testValuesThatCannotBeSentAreRefused() {
        func code(_ value: DBusValue) -> DBusConnectionError.Code? {
            var marshaller = DBusMarshaller()
            do {
                try marshaller.append(value)
                return nil
            } catch {
                return (error as? DBusConnectionError)?.code
            }
        }
        XCTAssertEqual(code(.string("a\u{0}b")), .invalidString)
        XCTAssertEqual(code(.objectPath("no/slash")), .invalidObjectPath)
        XCTAssertEqual(code(.signature("a{vs}")), .invalidSignature)
        XCTAssertEqual(code(.structure([])), .invalidSignature)
        XCTAssertEqual(code(.dictionary(keySignature: "v", valueSignature: "s", [])), .invalidSignature)
        XCTAssertEqual(
            code(
                .dictionary(
                    keySignature: "s", valueSignature: "s", [DBusDictionaryEntry(key: .int32(1), value: .string(""))])),
            .invalidValue)
        XCTAssertNil(code(.array(elementSignature: "{sv}", [])))
    }
}
