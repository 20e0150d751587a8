import DBusTestSupport
import Foundation
import SecureStorageDBus
import SecureStorageFoundation
import XCTest

/// Calls between two of our connections through a real `dbus-daemon`: every type round-trips,
/// error replies, signals routed by match rules, file descriptors, and 200 concurrent calls.
final class DBusCallTests: XCTestCase {
    private func echoPair() async throws -> (server: DBusConnection, client: DBusConnection) {
        let bus = try startPrivateBus()
        let server = try await DBusConnection.connect(to: bus.address)
        let client = try await DBusConnection.connect(to: bus.address)
        addTeardownBlock {
            server.close()
            client.close()
        }
        server.setMethodCallHandler { call in
            switch call.member {
            case "Echo": return .reply(call.body)
            case "Fail": return .error(name: "org.example.Error.Refused", message: "refused on purpose")
            case "Slow":
                try? await Task.sleep(for: .seconds(3))
                return .reply([])
            default: return .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no such method")
            }
        }
        return (server, client)
    }

    private static func echo(_ client: DBusConnection, to server: DBusConnection, _ body: [DBusValue]) async throws
        -> [DBusValue]
    {
        try await client.call(
            destination: server.uniqueName, path: "/org/example/Echo", interface: "org.example.Echo", member: "Echo",
            body: body)
    }

    func testEveryTypeRoundTripsBetweenTwoConnections() async throws {
        let (server, client) = try await echoPair()
        let basics = try await Self.echo(client, to: server, DBusTestValues.basics)
        XCTAssertEqual(basics, DBusTestValues.basics)
        for value in DBusTestValues.containers {
            let echoed = try await Self.echo(client, to: server, [value])
            XCTAssertEqual(echoed, [value], value.signature)
        }
        let deepest = try await Self.echo(client, to: server, [DBusTestValues.deepest])
        XCTAssertEqual(deepest, [DBusTestValues.deepest])
        XCTAssertEqual(DBusTestValues.deepest.signature.count, 32 + 32 + 1 + 32)
        let variants = try await Self.echo(client, to: server, [DBusTestValues.nestedVariants(63)])
        XCTAssertEqual(variants, [DBusTestValues.nestedVariants(63)])
        let empty = try await Self.echo(client, to: server, [])
        XCTAssertEqual(empty, [])
        let large = DBusValue.array(elementSignature: "y", (0..<300_000).map { .byte(UInt8(truncatingIfNeeded: $0)) })
        let echoedLarge = try await Self.echo(client, to: server, [large, .string("after")])
        XCTAssertEqual(echoedLarge, [large, .string("after")])
    }

    func testAValueTooDeepIsRefusedBeforeSending() async throws {
        let (server, client) = try await echoPair()
        do {
            _ = try await Self.echo(client, to: server, [DBusTestValues.nestedVariants(65)])
            XCTFail("65 nested variants were sent")
        } catch DBusConnectionError.Code.nestingTooDeep {}
        do {
            _ = try await Self.echo(client, to: server, [.objectPath("/trailing/")])
            XCTFail("an invalid object path was sent")
        } catch DBusConnectionError.Code.invalidObjectPath {}
        do {
            _ = try await Self.echo(client, to: server, [.array(elementSignature: "s", [.int32(1)])])
            XCTFail("an array element of another type was sent")
        } catch DBusConnectionError.Code.invalidValue {}
        let stillWorks = try await Self.echo(client, to: server, [.string("ok")])
        XCTAssertEqual(stillWorks, [.string("ok")])
    }

    func testErrorRepliesCarryNameAndMessage() async throws {
        let (server, client) = try await echoPair()
        do {
            _ = try await client.call(
                destination: server.uniqueName, path: "/", interface: "org.example.Echo", member: "Fail")
            XCTFail("an error reply returned values")
        } catch let error as DBusError {
            XCTAssertEqual(error, DBusError(name: "org.example.Error.Refused", message: "refused on purpose"))
        }
        do {
            _ = try await client.call(
                destination: "org.example.Nobody", path: "/", interface: "org.example.Echo", member: "Echo")
            XCTFail("a call to a missing name returned values")
        } catch let error as DBusError {
            XCTAssertEqual(error.name, "org.freedesktop.DBus.Error.ServiceUnknown")
        }
    }

    func testCallTimesOutWithThePreciseError() async throws {
        let (server, client) = try await echoPair()
        let start = ContinuousClock.now
        do {
            _ = try await client.call(
                destination: server.uniqueName, path: "/", interface: "org.example.Echo", member: "Slow",
                timeout: .milliseconds(300))
            XCTFail("a slow call returned before its timeout")
        } catch DBusConnectionError.Code.timedOut {}
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
        let after = try await Self.echo(client, to: server, [.uint32(1)])
        XCTAssertEqual(after, [.uint32(1)])
    }

    func testSignalsReachOnlyMatchingListeners() async throws {
        let (server, client) = try await echoPair()
        let received = Locked<[DBusMessage]>([])
        client.setSignalHandler { message in received.withLock { $0.append(message) } }
        try await client.addMatch("type='signal',interface='org.example.Signals',member='Changed'")
        try server.emitSignal(path: "/org/example/Obj", interface: "org.example.Signals", member: "Other", body: [])
        try server.emitSignal(
            path: "/org/example/Obj", interface: "org.example.Signals", member: "Changed",
            body: [.string("first"), .variant(.uint32(2))])
        // A round trip through the same server orders the signals before its reply.
        _ = try await Self.echo(client, to: server, [])
        let signals = received.withLock { $0 }.filter { $0.interface == "org.example.Signals" }
        XCTAssertEqual(signals.map(\.member), ["Changed"])
        XCTAssertEqual(signals.first?.body, [.string("first"), .variant(.uint32(2))])
        XCTAssertEqual(signals.first?.sender, server.uniqueName)
        XCTAssertEqual(signals.first?.path, "/org/example/Obj")
    }

    func testTwoHundredConcurrentCalls() async throws {
        let (server, client) = try await echoPair()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let reply = try await Self.echo(client, to: server, [.uint32(UInt32(index)), .string("\(index)")])
                    XCTAssertEqual(reply, [.uint32(UInt32(index)), .string("\(index)")])
                }
            }
            try await group.waitForAll()
        }
    }

    func testASlowHandlerDoesNotBlockOtherCalls() async throws {
        let (server, client) = try await echoPair()
        let slow = Task {
            try await client.call(
                destination: server.uniqueName, path: "/", interface: "org.example.Echo", member: "Slow")
        }
        let start = ContinuousClock.now
        let quick = try await Self.echo(client, to: server, [.byte(1)])
        XCTAssertEqual(quick, [.byte(1)])
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
        _ = try await slow.value
    }

    func testAFileDescriptorPassesFromCallerToHandler() async throws {
        let bus = try startPrivateBus()
        let server = try await DBusConnection.connect(to: bus.address)
        let client = try await DBusConnection.connect(to: bus.address)
        defer {
            server.close()
            client.close()
        }
        XCTAssertTrue(client.supportsUnixFileDescriptors)
        // The handler reads what the caller wrote into the pipe whose read end came with the call.
        server.setMethodCallHandler { call in
            defer { call.closeFileDescriptors() }
            guard case .unixFD(let index)? = call.body.first, Int(index) < call.unixFileDescriptors.count else {
                return .error(name: "org.example.Error.NoFD", message: "no descriptor")
            }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(call.unixFileDescriptors[Int(index)], &buffer, buffer.count)
            return .reply([.string(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self))])
        }
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[0]) }
        XCTAssertEqual(write(ends[1], "through the fd", 14), 14)
        close(ends[1])
        let reply = try await client.call(
            DBusMessage(
                kind: .methodCall, path: "/", interface: "org.example.FD", member: "Read",
                destination: server.uniqueName,
                body: [.unixFD(0)], unixFileDescriptors: [ends[0]]))
        XCTAssertEqual(reply.body, [.string("through the fd")])
    }
}

extension DBusCallTests {
    func testAMessageOverTheConnectionsLimitIsSkippedAndTheNextDelivered() async throws {
        let bus = try startPrivateBus()
        let server = try await DBusConnection.connect(to: bus.address, maximumIncomingMessageLength: 64 * 1024)
        let client = try await DBusConnection.connect(to: bus.address)
        defer {
            server.close()
            client.close()
        }
        XCTAssertEqual(server.maximumIncomingMessageLength, 64 * 1024)
        let calls = Locked<[Int]>([])
        server.setMethodCallHandler { call in
            calls.withLock { $0.append(call.body.count) }
            return .reply([.uint32(UInt32(call.body.count))])
        }
        let destination = server.uniqueName
        let big = DBusValue.array(elementSignature: "y", Array(repeating: .byte(0xAB), count: 1 << 20))
        do {
            _ = try await client.call(
                destination: destination, path: "/", interface: "org.example.I", member: "Big", body: [big],
                timeout: .milliseconds(500))
            XCTFail("a message over the limit was answered")
        } catch DBusConnectionError.Code.timedOut {}
        let small = try await client.call(
            destination: destination, path: "/", interface: "org.example.I", member: "Small", body: [.byte(1), .byte(2)]
        )
        XCTAssertEqual(small, [.uint32(2)])
        XCTAssertEqual(calls.withLock { $0 }, [2])
        XCTAssertFalse(server.isClosed)
    }
}
