import Foundation
import KeychainCore
import SecureStorageDBus
import SecureStorageFoundation
import XCTest

@testable import SecretService

/// The Flatpak secret portal backend over a real bus, with a real file descriptor passed as xdg-desktop-portal does.
final class PortalSecretBackendTests: XCTestCase {
    /// Calls RetrieveSecret for `appID` with the write end of a pipe; returns what was written.
    private func retrieve(_ client: DBusConnection, appID: String) async throws -> Data {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[0]) }
        let message = DBusMessage(
            kind: .methodCall, path: PortalSecretBackend.path, interface: PortalSecretBackend.interface,
            member: "RetrieveSecret", destination: SecretServiceNames.busName,
            body: [
                .objectPath("/org/freedesktop/portal/desktop/request/1_1/t"), .string(appID), .unixFD(0),
                .dictionary(keySignature: "s", valueSignature: "v", [])
            ], unixFileDescriptors: [ends[1]])
        let reply: DBusMessage
        do {
            reply = try await client.call(message, timeout: .seconds(10))
        } catch {
            close(ends[1])
            throw error
        }
        close(ends[1])
        XCTAssertEqual(reply.body.first, .uint32(0))
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(ends[0], &buffer, buffer.count)
        return Data(buffer.prefix(max(0, count)))
    }

    func testRetrieveSecretWritesAStablePerAppSecret() async throws {
        let hosted = try await ProviderOnBus.start(in: self)
        let client = try await DBusConnection.connect(to: hosted.busAddress)
        defer { client.close() }
        XCTAssertTrue(client.supportsUnixFileDescriptors, "the private bus must pass file descriptors")
        let first = try await retrieve(client, appID: "org.example.Portal")
        XCTAssertEqual(first.count, 64)
        XCTAssertNotEqual(first, Data(count: 64))
        let again = try await retrieve(client, appID: "org.example.Portal")
        XCTAssertEqual(again, first)
        let other = try await retrieve(client, appID: "org.example.Other")
        XCTAssertEqual(other.count, 64)
        XCTAssertNotEqual(other, first)
        let stored = try await hosted.keychain.find(
            Query(.genericPassword, [.account: "org.example.Portal"], accessGroups: [PortalSecretBackend.accessGroup]),
            returning: [.data])
        XCTAssertEqual(stored.first?.data, first)
        do {
            _ = try await retrieve(client, appID: "../not an id")
            XCTFail("an invalid app id got a secret")
        } catch let error as DBusError {
            XCTAssertEqual(error.name, "org.freedesktop.DBus.Error.InvalidArgs")
        }
    }
}
