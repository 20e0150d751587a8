import DBusTestSupport
import Foundation
import SecureStorageDBus
import SecureStorageFoundation
import XCTest

/// Connecting, failing to connect, and the bus going away: every failure is quick and precise,
/// pending calls never hang, and a hostile peer cannot take our connection down.
final class DBusConnectionLifecycleTests: XCTestCase {
    func testConnectToAMissingSocketFailsFastWithThePreciseError() async throws {
        let start = ContinuousClock.now
        do {
            _ = try await DBusConnection.connect(to: "unix:path=/tmp/no-such-dir-\(getpid())/bus")
            XCTFail("connected to a missing socket")
        } catch let error as DBusConnectionError {
            XCTAssertEqual(error.code, .connectFailed)
            XCTAssertTrue(error.message.contains("/tmp/no-such-dir-\(getpid())/bus"), error.message)
            XCTAssertTrue(error.message.contains("errno \(ENOENT)"), error.message)
        }
        do {
            _ = try await DBusConnection.connect(to: "unix:abstract=no-such-bus-\(getpid())")
            XCTFail("connected to a missing abstract socket")
        } catch DBusConnectionError.Code.connectFailed {}
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
    }

    func testAddressEntriesAreTriedInOrderAndUnescaped() async throws {
        let bus = try startPrivateBus()
        let escaped = bus.socketPath.replacingOccurrences(of: "/", with: "%2f").replacingOccurrences(
            of: "-", with: "%2D")
        let connection = try await DBusConnection.connect(
            to: "tcp:host=localhost,port=1;unix:path=/tmp/missing-\(getpid())/bus;unix:path=\(escaped),guid=00")
        defer { connection.close() }
        XCTAssertFalse(connection.uniqueName.isEmpty)
        XCTAssertEqual(
            try DBusAddress.parse("unix:path=/a%20b,guid=1;unix:abstract=x").map(\.socketAddress),
            [.path("/a b"), .abstract("x")])
    }

    func testAddressesWithoutAClientTransportAreRefused() async throws {
        for address in [
            "", ";", "unix:path", "unix:path=%zz", "unix:path=%c3", "nocolon", ":path=/x", "unix:path=/a,path=/b"
        ] {
            do {
                _ = try await DBusConnection.connect(to: address)
                XCTFail("connected to \(address)")
            } catch let error as DBusConnectionError {
                XCTAssertEqual(error.code, .invalidAddress, "\(address): \(error)")
            }
        }
        do {
            _ = try await DBusConnection.connect(to: "unix:tmpdir=/tmp;tcp:host=localhost,port=1")
            XCTFail("connected through a server-only address")
        } catch DBusConnectionError.Code.invalidAddress {}
        let tooLong = "unix:path=/" + String(repeating: "x", count: 200)
        do {
            _ = try await DBusConnection.connect(to: tooLong)
            XCTFail("connected to an over-long path")
        } catch DBusConnectionError.Code.invalidAddress {}
    }

    func testSessionBusAddressComesFromTheEnvironmentOrTheRuntimeDirectory() throws {
        let bus = try startPrivateBus()
        XCTAssertEqual(
            DBusConnection.sessionBusAddress(
                environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/x", "XDG_RUNTIME_DIR": bus.directory.path]),
            "unix:path=/x")
        XCTAssertEqual(
            DBusConnection.sessionBusAddress(environment: ["XDG_RUNTIME_DIR": bus.directory.path]), bus.address)
        XCTAssertNil(DBusConnection.sessionBusAddress(environment: ["XDG_RUNTIME_DIR": bus.serviceDirectory.path]))
        XCTAssertNil(DBusConnection.sessionBusAddress(environment: [:]))
    }

    func testASilentSocketTimesOutAuthentication() async throws {
        // A listening socket that never answers: connect succeeds (the backlog), authentication waits.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("silent-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bus").path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
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
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(listener, 4), 0)
        let start = ContinuousClock.now
        do {
            _ = try await DBusConnection.connect(to: "unix:path=" + path)
            XCTFail("authenticated against a silent socket")
        } catch DBusConnectionError.Code.timedOut {}
        let elapsed = ContinuousClock.now - start
        XCTAssertGreaterThanOrEqual(elapsed, .seconds(4))
        XCTAssertLessThan(elapsed, .seconds(15))
    }

    func testTheBusDyingFailsPendingCallsAndEndsWaitUntilClosed() async throws {
        let bus = try startPrivateBus()
        let server = try await DBusConnection.connect(to: bus.address)
        let client = try await DBusConnection.connect(to: bus.address)
        defer {
            server.close()
            client.close()
        }
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        server.setMethodCallHandler { _ in
            startedContinuation.yield()
            try? await Task.sleep(for: .seconds(60))
            return .reply([])
        }
        let destination = server.uniqueName
        let pending = Task {
            try await client.call(destination: destination, path: "/", interface: "org.example.I", member: "Hang")
        }
        for await _ in started { break }
        let start = ContinuousClock.now
        bus.killDaemon()
        do {
            _ = try await pending.value
            XCTFail("a call returned after the bus died")
        } catch DBusConnectionError.Code.closed {}
        await client.waitUntilClosed()
        await server.waitUntilClosed()
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
        XCTAssertTrue(client.isClosed)
        XCTAssertEqual(client.closeReason?.code, .closed)
        do {
            _ = try await client.call(destination: destination, path: "/", interface: "org.example.I", member: "After")
            XCTFail("a call on a dead connection returned")
        } catch DBusConnectionError.Code.closed {}
        XCTAssertThrowsError(try client.emitSignal(path: "/", interface: "org.example.I", member: "S")) { error in
            XCTAssertEqual((error as? DBusConnectionError)?.code, .closed)
        }
    }

    func testCloseFailsPendingCallsAndCanBeRepeated() async throws {
        let bus = try startPrivateBus()
        let server = try await DBusConnection.connect(to: bus.address)
        let client = try await DBusConnection.connect(to: bus.address)
        defer { server.close() }
        server.setMethodCallHandler { _ in
            try? await Task.sleep(for: .seconds(60))
            return .reply([])
        }
        let destination = server.uniqueName
        let pending = Task {
            try await client.call(destination: destination, path: "/", interface: "org.example.I", member: "Hang")
        }
        try await Task.sleep(for: .milliseconds(100))
        client.close()
        client.close()
        do {
            _ = try await pending.value
            XCTFail("a call returned after close")
        } catch DBusConnectionError.Code.closed {}
        await client.waitUntilClosed()
        XCTAssertTrue(client.isClosed)
        XCTAssertNil(client.closeReason)
        // The server noticed nothing: it still answers another client.
        let other = try await DBusConnection.connect(to: bus.address)
        defer { other.close() }
        let pong = try await other.call(
            destination: destination, path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping")
        XCTAssertEqual(pong, [])
    }

    func testAMalformedMessageSentToTheBusLeavesOurConnectionWorking() async throws {
        let bus = try startPrivateBus()
        let server = try await DBusConnection.connect(to: bus.address)
        defer { server.close() }
        let calls = Locked(0)
        server.setMethodCallHandler { call in
            calls.withLock { $0 += 1 }
            return .reply(call.body)
        }
        // A raw connection, authenticated and registered by hand, sends the server a call whose
        // body holds the boolean 2; the bus must drop that sender, and our server must not notice.
        let raw = try DBusSocket.connect(to: .path(bus.socketPath), timeout: 5)
        defer { raw.close() }
        _ = try DBusAuthentication.authenticate(raw)
        try raw.send(
            DBusMessage(
                kind: .methodCall, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "Hello",
                destination: "org.freedesktop.DBus"
            ).encoded(serial: 1))
        let hostile = try DBusRawMessage.littleEndian(
            serial: 2,
            fields: [(1, .objectPath("/")), (3, .string("M")), (6, .string(server.uniqueName))],
            rawSignature: "b", body: DBusRawMessage.uint32(2))
        try raw.send(hostile)
        // The bus closes the raw connection (after the Hello reply and NameAcquired).
        var closed = false
        for _ in 0..<100 {
            let (bytes, _) = try raw.receive(capacity: 4096)
            if bytes.isEmpty {
                closed = true
                break
            }
        }
        XCTAssertTrue(closed, "the bus kept a connection that sent a malformed message")
        let client = try await DBusConnection.connect(to: bus.address)
        defer { client.close() }
        let reply = try await client.call(
            destination: server.uniqueName, path: "/", interface: "org.example.I", member: "Echo", body: [.byte(1)])
        XCTAssertEqual(reply, [.byte(1)])
        XCTAssertEqual(calls.withLock { $0 }, 1)
        XCTAssertFalse(server.isClosed)
    }
}
