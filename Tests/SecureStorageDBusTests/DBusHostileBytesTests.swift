import AttackTestSupport
import SecureStorageDBus
import XCTest

/// Unmarshalling bytes an attacker chose: each hand-made violation of the specification gets
/// its precise error, and a seeded mutation loop over valid messages never crashes, traps,
/// hangs or returns data that does not encode back to itself.
final class DBusHostileBytesTests: XCTestCase {
    private func assertRejected(
        _ bytes: [UInt8], _ code: DBusConnectionError.Code, file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            let message = try DBusMessage(decoding: bytes)
            XCTFail("decoded \(message.bodySignature) instead of failing with \(code)", file: file, line: line)
        } catch let error as DBusConnectionError {
            XCTAssertEqual(error.code, code, error.message, file: file, line: line)
        } catch {
            XCTFail("unexpected error type \(error)", file: file, line: line)
        }
    }

    func testLengthsBeyondTheLimits() throws {
        var valid = try DBusRawMessage.call(signature: "u", body: DBusRawMessage.uint32(7))
        XCTAssertEqual(try DBusMessage(decoding: valid).body, [.uint32(7)])
        // Body length 0xFFFFFFFF: the message would exceed 128 MiB.
        valid.replaceSubrange(4..<8, with: DBusRawMessage.uint32(.max))
        assertRejected(valid, .lengthOutOfRange)
        // Header fields length beyond 64 MiB.
        var fields = try DBusRawMessage.call(signature: "u", body: DBusRawMessage.uint32(7))
        fields.replaceSubrange(12..<16, with: DBusRawMessage.uint32(0xFFFF_FFF0))
        assertRejected(fields, .lengthOutOfRange)
        // An array in the body claiming 64 MiB + 1.
        assertRejected(
            try DBusRawMessage.call(signature: "ay", body: DBusRawMessage.uint32(1 << 26 + 1) + [1, 2, 3, 4]),
            .lengthOutOfRange)
        // An array claiming more than the body holds.
        assertRejected(try DBusRawMessage.call(signature: "ay", body: DBusRawMessage.uint32(100) + [1]), .bodyMismatch)
        // A string claiming 4 GiB.
        assertRejected(try DBusRawMessage.call(signature: "s", body: DBusRawMessage.uint32(.max) + [0]), .bodyMismatch)
    }

    func testNestingDeeperThan64IsRefused() throws {
        func variants(_ depth: Int) -> [UInt8] {
            var body: [UInt8] = []
            for _ in 0..<depth { body += [1, UInt8(ascii: "v"), 0] }
            body += [1, UInt8(ascii: "y"), 0, 42]
            return body
        }
        XCTAssertEqual(
            try DBusMessage(decoding: try DBusRawMessage.call(signature: "v", body: variants(63))).body,
            [DBusTestValues.nestedVariantsOfByte(64)])
        assertRejected(try DBusRawMessage.call(signature: "v", body: variants(64)), .nestingTooDeep)
        // 33 nested arrays in a signature.
        assertRejected(
            try DBusRawMessage.call(signature: String(repeating: "a", count: 33) + "y", body: DBusRawMessage.uint32(0)),
            .nestingTooDeep)
        // 33 nested structures.
        assertRejected(
            try DBusRawMessage.call(
                signature: String(repeating: "(", count: 33) + "y" + String(repeating: ")", count: 33), body: [1]),
            .nestingTooDeep)
        // 32 arrays in the body signature, and a variant inside holding one more array.
        var body = [UInt8]()
        for _ in 0..<31 { body += DBusRawMessage.uint32(8) }
        body += DBusRawMessage.uint32(8) + [2, UInt8(ascii: "a"), UInt8(ascii: "y"), 0] + DBusRawMessage.uint32(0)
        assertRejected(
            try DBusRawMessage.call(signature: String(repeating: "a", count: 32) + "v", body: body), .nestingTooDeep)
    }

    func testInvalidStringsPathsBooleansAndSignatures() throws {
        func string(_ bytes: [UInt8]) -> [UInt8] { DBusRawMessage.uint32(UInt32(bytes.count)) + bytes + [0] }
        assertRejected(try DBusRawMessage.call(signature: "s", body: string([0xC3, 0x28])), .invalidString)
        assertRejected(try DBusRawMessage.call(signature: "s", body: string([0xED, 0xA0, 0x80])), .invalidString)
        assertRejected(try DBusRawMessage.call(signature: "s", body: string([0x61, 0, 0x62])), .invalidString)
        assertRejected(
            try DBusRawMessage.call(signature: "s", body: DBusRawMessage.uint32(1) + [0x61, 0x62]), .invalidString)
        assertRejected(try DBusRawMessage.call(signature: "o", body: string(Array("/a//b".utf8))), .invalidObjectPath)
        assertRejected(try DBusRawMessage.call(signature: "o", body: string(Array("/a/".utf8))), .invalidObjectPath)
        assertRejected(try DBusRawMessage.call(signature: "o", body: string(Array("a/b".utf8))), .invalidObjectPath)
        assertRejected(try DBusRawMessage.call(signature: "o", body: string(Array("/a-b".utf8))), .invalidObjectPath)
        assertRejected(try DBusRawMessage.call(signature: "b", body: DBusRawMessage.uint32(2)), .invalidBoolean)
        assertRejected(try DBusRawMessage.call(signature: "b", body: DBusRawMessage.uint32(.max)), .invalidBoolean)
        for bad in ["a", "(", ")", "()", "a{vs}", "{sv}", "a{s}", "a{svv}", "z", "(a)"] {
            let signature = Array(bad.utf8)
            assertRejected(
                try DBusRawMessage.call(signature: "g", body: [UInt8(signature.count)] + signature + [0]),
                .invalidSignature)
            assertRejected(
                try DBusRawMessage.call(signature: "v", body: [UInt8(signature.count)] + signature + [0, 0, 0, 0, 0]),
                .invalidSignature)
        }
        assertRejected(
            try DBusRawMessage.call(signature: "v", body: [2, UInt8(ascii: "y"), UInt8(ascii: "y"), 0, 1, 2]),
            .invalidSignature)
        assertRejected(
            try DBusRawMessage.call(signature: "h", body: DBusRawMessage.uint32(0)), .bodyMismatch)
    }

    func testBodyThatDoesNotMatchItsSignature() throws {
        assertRejected(
            try DBusRawMessage.call(signature: "u", body: DBusRawMessage.uint32(1) + DBusRawMessage.uint32(2)),
            .bodyMismatch)
        assertRejected(try DBusRawMessage.call(signature: "uu", body: DBusRawMessage.uint32(1)), .bodyMismatch)
        assertRejected(
            try DBusRawMessage.call(signature: "", body: DBusRawMessage.uint32(1)).withoutSignature(), .bodyMismatch)
        assertRejected(
            try DBusRawMessage.littleEndian(fields: [(1, .objectPath("/")), (3, .string("M"))], body: [1, 0, 0, 0]),
            .bodyMismatch)
        assertRejected(
            try DBusRawMessage.call(signature: "yu", body: [1, 9, 9, 9] + DBusRawMessage.uint32(1)), .invalidPadding)
    }

    func testHeaderViolations() throws {
        var valid = try DBusRawMessage.call(signature: "", body: [])
        XCTAssertEqual(try DBusMessage(decoding: valid).member, "M")
        valid[0] = UInt8(ascii: "X")
        assertRejected(valid, .invalidHeader)
        var version = try DBusRawMessage.call(signature: "", body: [])
        version[3] = 2
        assertRejected(version, .invalidHeader)
        assertRejected(try DBusRawMessage.littleEndian(type: 9, fields: [], body: []), .invalidHeader)
        assertRejected(
            try DBusRawMessage.littleEndian(serial: 0, fields: [(1, .objectPath("/")), (3, .string("M"))], body: []),
            .invalidHeader)
        // Required fields per type.
        assertRejected(
            try DBusRawMessage.littleEndian(type: 1, fields: [(1, .objectPath("/"))], body: []), .invalidHeaderField)
        assertRejected(try DBusRawMessage.littleEndian(type: 2, fields: [], body: []), .invalidHeaderField)
        assertRejected(
            try DBusRawMessage.littleEndian(type: 3, fields: [(5, .uint32(1))], body: []), .invalidHeaderField)
        assertRejected(
            try DBusRawMessage.littleEndian(type: 4, fields: [(1, .objectPath("/")), (3, .string("M"))], body: []),
            .invalidHeaderField)
        // A field of the wrong type, a duplicate field, bad names.
        assertRejected(
            try DBusRawMessage.littleEndian(fields: [(1, .string("/")), (3, .string("M"))], body: []),
            .invalidHeaderField)
        assertRejected(
            try DBusRawMessage.littleEndian(
                fields: [(1, .objectPath("/")), (3, .string("M")), (3, .string("N"))], body: []),
            .invalidHeaderField)
        assertRejected(
            try DBusRawMessage.littleEndian(fields: [(1, .objectPath("/")), (3, .string("1M"))], body: []), .invalidName
        )
        assertRejected(
            try DBusRawMessage.littleEndian(
                fields: [(1, .objectPath("/")), (2, .string("nodots")), (3, .string("M"))], body: []),
            .invalidName)
        assertRejected(
            try DBusRawMessage.littleEndian(
                fields: [(1, .objectPath("/")), (3, .string("M")), (6, .string("org..x"))], body: []),
            .invalidName)
        // Unknown fields are ignored, as the specification requires.
        let unknown = try DBusRawMessage.littleEndian(
            fields: [(1, .objectPath("/")), (200, .string("ignored")), (3, .string("M"))], body: [])
        XCTAssertEqual(try DBusMessage(decoding: unknown).path, "/")
        // Descriptors announced but not received.
        assertRejected(
            try DBusRawMessage.littleEndian(
                fields: [(1, .objectPath("/")), (3, .string("M")), (9, .uint32(1))], body: []),
            .bodyMismatch)
    }

    func testTruncatedAtEveryLength() throws {
        let valid = try DBusMessage(
            kind: .methodCall, path: "/a", interface: "org.example.I", member: "M", destination: ":1.1",
            body: DBusTestValues.containers
        ).encoded(serial: 5)
        XCTAssertNoThrow(try DBusMessage(decoding: valid))
        for length in 0..<valid.count {
            assertRejected(Array(valid.prefix(length)), .truncated)
        }
    }

    func testBigEndianMessagesAreRead() throws {
        func be32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        // Fields: PATH "/" (o), MEMBER "M" (s), SIGNATURE "uq" (g); body u32 0x01020304, u16 0x0506.
        // Each field is a structure: 8-aligned, so "/" and "M" are followed by 6 bytes of padding.
        var fields: [UInt8] = [1, 1, UInt8(ascii: "o"), 0] + be32(1) + [UInt8(ascii: "/"), 0, 0, 0, 0, 0, 0, 0]
        fields += [3, 1, UInt8(ascii: "s"), 0] + be32(1) + [UInt8(ascii: "M"), 0, 0, 0, 0, 0, 0, 0]
        fields += [8, 1, UInt8(ascii: "g"), 0, 2, UInt8(ascii: "u"), UInt8(ascii: "q"), 0]
        let body = be32(0x0102_0304) + [0x05, 0x06]
        var bytes: [UInt8] =
            [UInt8(ascii: "B"), 1, 0, 1] + be32(UInt32(body.count)) + be32(77) + be32(UInt32(fields.count))
        bytes += fields
        while bytes.count % 8 != 0 { bytes.append(0) }
        bytes += body
        let message = try DBusMessage(decoding: bytes)
        XCTAssertEqual(message.serial, 77)
        XCTAssertEqual(message.path, "/")
        XCTAssertEqual(message.body, [.uint32(0x0102_0304), .uint16(0x0506)])
    }

    func testSeededMutationsGiveAPreciseErrorOrDataThatEncodesBack() throws {
        let seeds: [[UInt8]] = try [
            DBusMessage(
                kind: .methodCall, path: "/org/example", interface: "org.example.I", member: "Echo",
                destination: "org.example.Service", body: DBusTestValues.basics
            ).encoded(serial: 1),
            DBusMessage(
                kind: .signal, path: "/s", interface: "org.example.S", member: "Changed", sender: ":1.7",
                body: DBusTestValues.containers
            ).encoded(serial: 2),
            DBusMessage(kind: .methodReturn, replySerial: 9, body: [DBusTestValues.deepest]).encoded(serial: 3),
            DBusMessage(
                kind: .error, errorName: "org.example.Error.X", replySerial: 4, body: [.string("no")]
            ).encoded(serial: 4)
        ]
        var generator = SplitMix64(seed: 0xDB05_2026)
        var decoded = 0
        var rejected: [DBusConnectionError.Code: Int] = [:]
        for _ in 0..<20_000 {
            var bytes = seeds[Int(generator.next() % UInt64(seeds.count))]
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 6 {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: generator.next())
                case 1: bytes[position] ^= 1 << UInt8(generator.next() % 8)
                case 2: bytes[position] = 0xFF
                case 3: bytes[position] = 0
                case 4: bytes.removeSubrange(position..<min(bytes.count, position + 1 + Int(generator.next() % 8)))
                default: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
                }
                if bytes.isEmpty { bytes = [0] }
            }
            do {
                let message = try DBusMessage(decoding: bytes)
                decoded += 1
                let again = try message.encoded(serial: message.serial)
                XCTAssertEqual(try DBusMessage(decoding: again).encoded(serial: message.serial), again)
            } catch let error as DBusConnectionError {
                rejected[error.code, default: 0] += 1
                XCTAssertFalse(error.message.isEmpty)
            }
        }
        XCTAssertGreaterThan(rejected.values.reduce(0, +), 10_000)
        XCTAssertGreaterThan(decoded, 0)
        XCTAssertGreaterThanOrEqual(rejected.count, 6, "\(rejected)")
    }
}

extension [UInt8] {
    /// This message with its SIGNATURE header field renamed to an unknown field code (so ignored).
    fileprivate func withoutSignature() -> [UInt8] {
        var bytes = self
        // The fields start at 16, each 8-aligned: find the (8, 'g') pair and change its code.
        var offset = 16
        while offset + 2 < bytes.count {
            if bytes[offset] == 8, bytes[offset + 1] == 1, bytes[offset + 2] == UInt8(ascii: "g") {
                bytes[offset] = 100
                return bytes
            }
            offset += 8
        }
        return bytes
    }
}
