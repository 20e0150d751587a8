import DBusTestSupport
import Foundation
import SecureStorageDBus
import XCTest

/// The connection against a real `dbus-daemon`: registration, the bus's own methods, names,
/// peer credentials and Peer.Ping.
final class DBusBusTests: XCTestCase {
    func testHelloListNamesAndGetId() async throws {
        let bus = try startPrivateBus()
        let connection = try await DBusConnection.connect(to: bus.address)
        defer { connection.close() }
        XCTAssertTrue(connection.uniqueName.hasPrefix(":1."), connection.uniqueName)
        let names = try await connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "ListNames")
        guard case .array("s", let list)? = names.first else { return XCTFail("ListNames returned \(names)") }
        XCTAssertTrue(list.contains(.string(connection.uniqueName)))
        XCTAssertTrue(list.contains(.string("org.freedesktop.DBus")))
        let id = try await connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetId")
        guard case .string(let text)? = id.first else { return XCTFail("GetId returned \(id)") }
        XCTAssertEqual(text.count, 32)
    }

    func testRequestNameReplyCodesAndRelease() async throws {
        let bus = try startPrivateBus()
        let first = try await DBusConnection.connect(to: bus.address)
        let second = try await DBusConnection.connect(to: bus.address)
        defer {
            first.close()
            second.close()
        }
        let doNotQueue: UInt32 = 0x4
        let acquired = try await first.requestName("org.example.Owned", flags: doNotQueue)
        XCTAssertEqual(acquired, 1)
        let again = try await first.requestName("org.example.Owned", flags: doNotQueue)
        XCTAssertEqual(again, 4)
        let taken = try await second.requestName("org.example.Owned", flags: doNotQueue)
        XCTAssertEqual(taken, 3)
        let queued = try await second.requestName("org.example.Owned", flags: 0)
        XCTAssertEqual(queued, 2)
        try await first.releaseName("org.example.Owned")
        let owner = try await first.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetNameOwner", body: [.string("org.example.Owned")])
        XCTAssertEqual(owner, [.string(second.uniqueName)])
    }

    func testPeerCredentialsAreOurUIDAndPID() async throws {
        let bus = try startPrivateBus()
        let connection = try await DBusConnection.connect(to: bus.address)
        defer { connection.close() }
        let credentials = try await connection.peerCredentials(of: connection.uniqueName)
        XCTAssertEqual(credentials.uid, getuid())
        XCTAssertEqual(credentials.pid, UInt32(getpid()))
        let daemon = try await connection.peerCredentials(of: "org.freedesktop.DBus")
        XCTAssertEqual(daemon.pid, UInt32(bus.processIdentifier))
        do {
            _ = try await connection.peerCredentials(of: ":1.999999")
            XCTFail("credentials of a name nobody owns")
        } catch let error as DBusError {
            XCTAssertEqual(error.name, "org.freedesktop.DBus.Error.NameHasNoOwner")
        }
    }

    func testPingAndGetMachineIdAreAnsweredWithoutAHandler() async throws {
        let bus = try startPrivateBus()
        let server = try await DBusConnection.connect(to: bus.address)
        let client = try await DBusConnection.connect(to: bus.address)
        defer {
            server.close()
            client.close()
        }
        let pong = try await client.call(
            destination: server.uniqueName, path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping")
        XCTAssertEqual(pong, [])
        if FileManager.default.fileExists(atPath: "/etc/machine-id")
            || FileManager.default.fileExists(atPath: "/var/lib/dbus/machine-id")
        {
            let id = try await client.call(
                destination: server.uniqueName, path: "/", interface: "org.freedesktop.DBus.Peer",
                member: "GetMachineId")
            guard case .string(let text)? = id.first else { return XCTFail("GetMachineId returned \(id)") }
            XCTAssertEqual(text.count, 32)
        }
        do {
            _ = try await client.call(
                destination: server.uniqueName, path: "/a", interface: "org.example.Thing", member: "Frob")
            XCTFail("a call before any handler was answered")
        } catch let error as DBusError {
            XCTAssertEqual(error.name, "org.freedesktop.DBus.Error.UnknownMethod")
        }
    }
}
