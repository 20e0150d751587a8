import Foundation
import SecureStorageDBus
import SecureStorageFoundation
import XCTest

/// A fake bus that a test scripts byte by byte (what anyone who can put a socket in
/// DBUS_SESSION_BUS_ADDRESS could serve): our connection drops a message it cannot read and
/// keeps going, closes with a precise reason on broken framing, and refuses a bad handshake.
final class DBusHostileBusTests: XCTestCase {
    /// A listening socket in a temporary directory; `script` runs on its own thread with the
    /// first accepted connection.
    private final class FakeBus: @unchecked Sendable {
        let directory: URL
        let path: String
        let listener: Int32

        init() throws {
            directory = URL(fileURLWithPath: "/tmp/fakebus-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            path = directory.appendingPathComponent("bus").path
            listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard bound == 0, listen(listener, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        }

        func serve(_ script: @escaping @Sendable (DBusSocket) throws -> Void) {
            let listener = listener
            Thread {
                let accepted = accept(listener, nil, nil)
                guard accepted >= 0 else { return }
                let peer = DBusSocket(descriptor: accepted)
                try? script(peer)
            }.start()
        }

        func stop() {
            close(listener)
            try? FileManager.default.removeItem(at: directory)
        }

        /// Reads the client's authentication up to BEGIN, answering OK and AGREE_UNIX_FD.
        static func acceptAuthentication(_ peer: DBusSocket, firstReply: String = "OK 0123456789abcdef0123456789abcdef")
            throws
        {
            var line: [UInt8] = []
            while true {
                var byte: UInt8 = 0
                guard read(peer.descriptor, &byte, 1) == 1 else { return }
                if byte == 0, line.isEmpty { continue }
                line.append(byte)
                guard line.suffix(2) == [13, 10] else { continue }
                let text = String(decoding: line.dropLast(2), as: UTF8.self)
                line = []
                if text.hasPrefix("AUTH") { try peer.send(Array((firstReply + "\r\n").utf8)) }
                if text == "NEGOTIATE_UNIX_FD" { try peer.send(Array("AGREE_UNIX_FD\r\n".utf8)) }
                if text == "BEGIN" { return }
            }
        }

        /// Reads one whole message.
        static func readMessage(_ peer: DBusSocket) throws -> DBusMessage {
            var bytes: [UInt8] = []
            var length = Int.max
            while bytes.count < length {
                let (chunk, _) = try peer.receive(capacity: bytes.count < 16 ? 16 - bytes.count : length - bytes.count)
                guard !chunk.isEmpty else { throw POSIXError(.ECONNRESET) }
                bytes += chunk
                if bytes.count >= 16, length == .max {
                    length = try DBusMessage.length(ofMessageStartingWith: bytes.prefix(16))
                }
            }
            return try DBusMessage(decoding: bytes)
        }

        /// Answers the client's Hello with the unique name `:1.1`.
        static func answerHello(_ peer: DBusSocket) throws {
            let hello = try readMessage(peer)
            try peer.send(
                DBusMessage(
                    kind: .methodReturn, replySerial: hello.serial, destination: ":1.1", sender: "org.freedesktop.DBus",
                    body: [.string(":1.1")]
                ).encoded(serial: 1))
        }
    }

    private func signal(_ member: String, serial: UInt32) throws -> [UInt8] {
        try DBusMessage(
            kind: .signal, path: "/x", interface: "org.example.Fake", member: member, sender: "org.freedesktop.DBus",
            body: [.string(member)]
        ).encoded(serial: serial)
    }

    func testAnUnreadableMessageIsDroppedAndBrokenFramingClosesWithItsReason() async throws {
        let bus = try FakeBus()
        defer { bus.stop() }
        let bad = try DBusRawMessage.littleEndian(
            type: 4, serial: 2,
            fields: [(1, .objectPath("/x")), (2, .string("org.example.Fake")), (3, .string("Bad"))],
            rawSignature: "b", body: DBusRawMessage.uint32(2))
        let good = try signal("Good", serial: 3)
        var unframed = try signal("Never", serial: 4)
        unframed[0] = UInt8(ascii: "X")
        let broken = unframed
        let (finished, finishedContinuation) = AsyncStream.makeStream(of: Void.self)
        bus.serve { peer in
            defer {
                finishedContinuation.yield()
                peer.close()
            }
            try FakeBus.acceptAuthentication(peer)
            try FakeBus.answerHello(peer)
            // Wait until the client has its signal handler (it says Ready), then send.
            _ = try FakeBus.readMessage(peer)
            try peer.send(bad + good)
            // Wait for the test to have seen Good, then break the framing.
            _ = try FakeBus.readMessage(peer)
            try peer.send(broken)
            _ = try? peer.receive(capacity: 16)
        }
        let connection = try await DBusConnection.connect(to: "unix:path=" + bus.path)
        defer { connection.close() }
        XCTAssertEqual(connection.uniqueName, ":1.1")
        let (signals, signalsContinuation) = AsyncStream.makeStream(of: String.self)
        connection.setSignalHandler { message in signalsContinuation.yield(message.member ?? "") }
        try connection.emitSignal(path: "/x", interface: "org.example.Fake", member: "Ready")
        var iterator = signals.makeAsyncIterator()
        let first = await iterator.next()
        XCTAssertEqual(first, "Good", "the unreadable signal was delivered or the good one lost")
        try connection.emitSignal(path: "/x", interface: "org.example.Fake", member: "Seen")
        await connection.waitUntilClosed()
        XCTAssertEqual(connection.closeReason?.code, .invalidHeader)
        for await _ in finished { break }
    }

    func testARejectedOrGarbledHandshakeFailsWithThePreciseError() async throws {
        for (reply, code) in [
            ("REJECTED EXTERNAL", DBusConnectionError.Code.authenticationFailed),
            ("\u{1b}[31mOK?", .authenticationFailed)
        ] {
            let bus = try FakeBus()
            defer { bus.stop() }
            bus.serve { peer in
                defer { peer.close() }
                try FakeBus.acceptAuthentication(peer, firstReply: reply)
            }
            do {
                _ = try await DBusConnection.connect(to: "unix:path=" + bus.path)
                XCTFail("connected through a handshake answered with \(reply)")
            } catch let error as DBusConnectionError {
                XCTAssertEqual(error.code, code)
                XCTAssertFalse(error.message.contains("\u{1b}"), "a control character reached the message")
            }
        }
    }

    func testAHugeAnnouncedMessageClosesTheConnectionWithoutAllocatingIt() async throws {
        let bus = try FakeBus()
        defer { bus.stop() }
        var announced = try signal("Huge", serial: 2)
        announced.replaceSubrange(4..<8, with: DBusRawMessage.uint32(0xFFFF_FF00))
        let huge = announced
        bus.serve { peer in
            defer { peer.close() }
            try FakeBus.acceptAuthentication(peer)
            try FakeBus.answerHello(peer)
            try peer.send(huge)
            _ = try? peer.receive(capacity: 16)
        }
        let connection = try await DBusConnection.connect(to: "unix:path=" + bus.path)
        defer { connection.close() }
        await connection.waitUntilClosed()
        XCTAssertEqual(connection.closeReason?.code, .lengthOutOfRange)
    }
}

extension DBusHostileBusTests {
    func testCloseIsNotHeldUpByAWriteToABusThatStoppedReading() async throws {
        let bus = try FakeBus()
        defer { bus.stop() }
        let testDone = Locked(false)
        bus.serve { peer in
            defer { peer.close() }
            try FakeBus.acceptAuthentication(peer)
            try FakeBus.answerHello(peer)
            // Never read again, until the test ends.
            for _ in 0..<400 where !testDone.withLock({ $0 }) { usleep(50_000) }
        }
        defer { testDone.withLock { $0 = true } }
        let connection = try await DBusConnection.connect(to: "unix:path=" + bus.path)
        let payload = DBusValue.array(elementSignature: "y", Array(repeating: .byte(1), count: 256 * 1024))
        let (blocked, blockedContinuation) = AsyncStream.makeStream(of: Void.self)
        let writes = Task.detached {
            // Writes until one blocks on the full socket, which close must end.
            do {
                for index in 0..<1_000 {
                    if index == 0 { blockedContinuation.yield() }
                    try connection.emitSignal(
                        path: "/x", interface: "org.example.Fake", member: "Fill", body: [payload])
                }
                return DBusConnectionError.Code(rawValue: "noError")
            } catch let error as DBusConnectionError {
                return error.code
            } catch {
                return DBusConnectionError.Code(rawValue: "other")
            }
        }
        for await _ in blocked { break }
        // Time for the writes to fill the socket (256 KiB each; the buffer holds less) and block.
        try await Task.sleep(for: .milliseconds(500))
        let start = ContinuousClock.now
        connection.close()
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(1))
        let code = await writes.value
        XCTAssertTrue([.transportFailed, .closed].contains(code), "\(code)")
        await connection.waitUntilClosed()
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
    }
}
