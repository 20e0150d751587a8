import DBusTestSupport
import Foundation
import KeychainCore
import SecureStorageDBus
import XCTest

@testable import SecretService

/// A ``SecretServiceProvider`` hosted in this process on a private bus, over a temporary keychain
/// with a passphrase (unlocked) and an ``InMemorySecretServiceUnlocker``.
final class ProviderOnBus: @unchecked Sendable {
    let busAddress: String
    let keychainDirectory: URL
    let keychain: Keychain
    let unlocker: InMemorySecretServiceUnlocker
    let provider: SecretServiceProvider
    let connection: DBusConnection
    let serving: Task<Void, any Error>

    /// Starts the provider on `bus` (a new private bus when `nil`) and waits until it owns its name.
    static func start(in test: XCTestCase, busAddress: String? = nil) async throws -> ProviderOnBus {
        let address = try busAddress ?? test.startPrivateBus().address
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssbus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let keychain = try SecretServiceHarness.openKeychain(in: directory)
        try keychain.setPassphrase(SecretServiceHarness.passphrase)
        let unlocker = InMemorySecretServiceUnlocker(keychain: keychain, passphrase: SecretServiceHarness.passphrase)
        let provider = SecretServiceProvider(keychain: keychain, unlocker: unlocker)
        let connection = try await DBusConnection.connect(to: address)
        let serving = Task { try await provider.serve(on: connection) }
        let hosted = ProviderOnBus(
            busAddress: address, keychainDirectory: directory, keychain: keychain, unlocker: unlocker,
            provider: provider,
            connection: connection, serving: serving)
        test.addTeardownBlock {
            connection.close()
            _ = await serving.result
            try? FileManager.default.removeItem(at: directory)
        }
        try await hosted.waitUntilServing()
        return hosted
    }

    private init(
        busAddress: String, keychainDirectory: URL, keychain: Keychain, unlocker: InMemorySecretServiceUnlocker,
        provider: SecretServiceProvider, connection: DBusConnection, serving: Task<Void, any Error>
    ) {
        self.busAddress = busAddress
        self.keychainDirectory = keychainDirectory
        self.keychain = keychain
        self.unlocker = unlocker
        self.provider = provider
        self.connection = connection
        self.serving = serving
    }

    private func waitUntilServing() async throws {
        let client = try await DBusConnection.connect(to: busAddress)
        defer { client.close() }
        for _ in 0..<250 {
            let owner = try? await client.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetNameOwner", body: [.string(SecretServiceNames.busName)])
            if owner?.first?.stringValue == connection.uniqueName { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTFail("the provider did not take org.freedesktop.secrets")
    }

    /// The environment of a client process on this bus.
    func clientEnvironment(home: URL? = nil) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment["HOME"] = (home ?? keychainDirectory).path
        environment["XDG_RUNTIME_DIR"] = nil
        environment["PYTHON_KEYRING_BACKEND"] = "keyring.backends.SecretService.Keyring"
        return environment
    }

    /// Runs python `script` (with `arguments`) as a client of the provider.
    func python(_ python: String, _ script: String, _ arguments: [String] = [], timeout: Duration = .seconds(120))
        async throws -> ExternalCommand.Outcome
    {
        try await ExternalCommand(
            executable: python, arguments: ["-c", script] + arguments, environment: clientEnvironment()
        ).run(timeout: timeout)
    }
}
