import Foundation
import SecureStorageDBus
import XCTest

/// Our marshalling against GLib's (GDBusMessage through python3-gi, an implementation nobody
/// here wrote): GLib's bytes in both byte orders decode to the values GLib was given, and our
/// bytes parse in GLib to the values we encoded.
final class DBusWireInteropTests: XCTestCase {
    private static let python = "/usr/bin/python3"

    private func runPython(_ script: String, _ arguments: [String] = []) throws -> String {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: Self.python)
        probe.arguments = ["-c", "from gi.repository import Gio, GLib"]
        probe.standardError = FileHandle.nullDevice
        try? probe.run()
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else {
            if ProcessInfo.processInfo.environment["REQUIRE_DBUS"] != nil {
                XCTFail("python3-gi is not installed at /usr/bin/python3 (Debian: apt-get install python3-gi)")
            }
            throw XCTSkip("python3-gi is not installed at /usr/bin/python3")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = ["-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self)
    }

    private static func bytes(fromHex hex: Substring) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    func testGLibMessagesInBothByteOrdersDecode() throws {
        let output = try runPython(
            """
            from gi.repository import Gio, GLib
            m = Gio.DBusMessage.new_method_call("org.example.Dest", "/org/example/Obj", "org.example.Iface", "Method")
            m.set_body(GLib.Variant("(yba{sv}(nqx)aosdv)",
                (7, True, {"k": GLib.Variant("t", 9)}, (-2, 3, -4), ["/a", "/b/c"], "ünï", 2.5,
                 GLib.Variant("ay", b"\\x00\\x01"))))
            m.set_serial(42)
            for order in (Gio.DBusMessageByteOrder.LITTLE_ENDIAN, Gio.DBusMessageByteOrder.BIG_ENDIAN):
                m.set_byte_order(order)
                print(m.to_blob(Gio.DBusCapabilityFlags.NONE).hex())
            """)
        let blobs = output.split(separator: "\n")
        XCTAssertEqual(blobs.count, 2)
        XCTAssertEqual(blobs.last.map { Self.bytes(fromHex: $0).first }, UInt8(ascii: "B"))
        let expected: [DBusValue] = [
            .byte(7), .boolean(true),
            .dictionary(
                keySignature: "s", valueSignature: "v",
                [DBusDictionaryEntry(key: .string("k"), value: .variant(.uint64(9)))]),
            .structure([.int16(-2), .uint16(3), .int64(-4)]),
            .array(elementSignature: "o", [.objectPath("/a"), .objectPath("/b/c")]), .string("ünï"), .double(2.5),
            .variant(.array(elementSignature: "y", [.byte(0), .byte(1)]))
        ]
        for blob in blobs {
            let message = try DBusMessage(decoding: Self.bytes(fromHex: blob))
            XCTAssertEqual(message.kind, .methodCall)
            XCTAssertEqual(message.serial, 42)
            XCTAssertEqual(message.path, "/org/example/Obj")
            XCTAssertEqual(message.interface, "org.example.Iface")
            XCTAssertEqual(message.member, "Method")
            XCTAssertEqual(message.destination, "org.example.Dest")
            XCTAssertEqual(message.body, expected)
        }
    }

    func testOurMessagesParseInGLib() throws {
        let message = DBusMessage(
            kind: .signal, path: "/org/example/Obj", interface: "org.example.Iface", member: "Changed",
            body: [
                .uint32(5), .structure([.string("x"), .variant(.int32(-1))]),
                .dictionary(
                    keySignature: "s", valueSignature: "as",
                    [DBusDictionaryEntry(key: .string("list"), value: .array(elementSignature: "s", [.string("a")]))]),
                .array(elementSignature: "(yt)", []), .signature("a{sv}"), .boolean(false), .uint64(.max)
            ])
        let hex = try message.encoded(serial: 7).map { String(format: "%02x", $0) }.joined()
        let printed = try runPython(
            """
            import sys
            from gi.repository import Gio, GLib
            m = Gio.DBusMessage.new_from_blob(bytes.fromhex(sys.argv[1]), Gio.DBusCapabilityFlags.NONE)
            print(m.get_message_type().value_nick, m.get_serial(), m.get_path(), m.get_interface(), m.get_member())
            print(m.get_signature())
            print(m.get_body().print_(True))
            """, [hex])
        let lines = printed.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "signal 7 /org/example/Obj org.example.Iface Changed")
        XCTAssertEqual(lines.dropFirst().first, "u(sv)a{sas}a(yt)gbt")
        XCTAssertEqual(
            lines.last,
            "(uint32 5, ('x', <-1>), {'list': ['a']}, @a(yt) [], signature 'a{sv}', false, uint64 18446744073709551615)"
        )
    }
}
