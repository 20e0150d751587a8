import Foundation
@_spi(Testing) import KeychainCore
import SecureStorageDBus
import SecureStorageFoundation
import XCTest

@testable import SecretService

/// A temporary keychain with a passphrase (cheap scrypt), an in-memory unlocker over it, and the
/// Secret Service object tree on top, called directly (no bus) with made-up callers.
final class SecretServiceHarness: @unchecked Sendable {
    static let passphrase = "correct horse battery staple"

    let directory: URL
    let keychain: Keychain
    let unlocker: InMemorySecretServiceUnlocker
    let signals = RecordedSignals()
    let objects: SecretServiceObjects

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ss-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        keychain = try Self.openKeychain(in: directory)
        try keychain.setPassphrase(Self.passphrase)
        try keychain.lock()
        unlocker = InMemorySecretServiceUnlocker(keychain: keychain, passphrase: Self.passphrase)
        objects = SecretServiceObjects(
            keychain: keychain, unlocker: unlocker, loginGroup: ApplicationIdentity.sharedGroup, signals: signals)
    }

    /// Opens (creating) the keychain in `directory` with cheap passphrase hardening.
    static func openKeychain(in directory: URL) throws -> Keychain {
        try Keychain(
            location: KeychainLocation(directory: directory.appendingPathComponent("keychain")),
            options: KeychainOptions(
                passphraseHardening: .fixed(.insecureForTestingOnly),
                defaultAccessGroup: ApplicationIdentity.sharedGroup,
                resumesUnlockSession: false, tpm: nil))
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// An unsandboxed caller of this uid.
    static func caller(_ name: String = ":1.10", flatpak: String? = nil) -> SecretServiceCaller {
        SecretServiceCaller(uniqueName: name, uid: getuid(), pid: 1, flatpakAppID: flatpak)
    }

    /// Calls a method; returns the reply or the error.
    func call(
        _ path: String, _ interface: String?, _ member: String, _ body: [DBusValue] = [],
        as caller: SecretServiceCaller = caller()
    ) async -> Result<[DBusValue], SecretServiceError> {
        await objects.handle(path: path, interface: interface, member: member, body: body, caller: caller)
    }

    /// Calls a method that must succeed.
    func reply(
        _ path: String, _ interface: String?, _ member: String, _ body: [DBusValue] = [],
        as caller: SecretServiceCaller = caller(), file: StaticString = #filePath, line: UInt = #line
    ) async throws -> [DBusValue] {
        switch await call(path, interface, member, body, as: caller) {
        case .success(let values): return values
        case .failure(let error):
            XCTFail("\(member) failed: \(error)", file: file, line: line)
            throw error
        }
    }

    /// The error code of a call that must fail.
    func errorCode(
        _ path: String, _ interface: String?, _ member: String, _ body: [DBusValue] = [],
        as caller: SecretServiceCaller = caller()
    ) async -> String? {
        if case .failure(let error) = await call(path, interface, member, body, as: caller) {
            error.code.rawValue
        } else {
            nil
        }
    }

    /// Opens a `plain` session; returns its path.
    func plainSession(as caller: SecretServiceCaller = caller()) async throws -> String {
        let values = try await reply(
            SecretServiceNames.servicePath, SecretServiceNames.serviceInterface, "OpenSession",
            [.string("plain"), .variant(.string(""))], as: caller)
        return values[1].stringValue ?? ""
    }

    /// Creates an item in the login collection through `CreateItem`; returns its path.
    func createItem(
        label: String, attributes: [String: String], secret: Data, session: String, replace: Bool = false,
        collection: String = "/org/freedesktop/secrets/collection/login", as caller: SecretServiceCaller = caller()
    ) async throws -> String {
        let properties = DBusValue.dictionary(
            keySignature: "s", valueSignature: "v",
            [
                DBusDictionaryEntry(key: .string("org.freedesktop.Secret.Item.Label"), value: .variant(.string(label))),
                DBusDictionaryEntry(
                    key: .string("org.freedesktop.Secret.Item.Attributes"),
                    value: .variant(.stringDictionary(attributes)))
            ])
        let values = try await reply(
            collection, SecretServiceNames.collectionInterface, "CreateItem",
            [
                properties,
                SecretValue(session: session, parameters: Data(), value: secret, contentType: "text/plain")
                    .dbusValue, .boolean(replace)
            ], as: caller)
        return values[0].stringValue ?? ""
    }

    /// `SearchItems` on the service: the unlocked paths.
    func search(_ attributes: [String: String], as caller: SecretServiceCaller = caller()) async throws -> [String] {
        let values = try await reply(
            SecretServiceNames.servicePath, SecretServiceNames.serviceInterface, "SearchItems",
            [.stringDictionary(attributes)], as: caller)
        guard case .array(_, let paths) = values[0] else { return [] }
        return paths.compactMap(\.stringValue)
    }

    /// `GetSecret` of an item through `session`: the value bytes.
    func secret(of item: String, session: String, as caller: SecretServiceCaller = caller()) async throws -> Data {
        let values = try await reply(
            item, SecretServiceNames.itemInterface, "GetSecret", [.objectPath(session)], as: caller)
        return try SecretValue(values[0]).value
    }
}

/// Signals the object tree emitted, in order.
final class RecordedSignals: SecretServiceSignalSink, @unchecked Sendable {
    struct Signal: Sendable {
        var path: String
        var member: String
        var body: [DBusValue]
        var destination: String?
    }

    private let signals = Locked([Signal]())

    func emit(path: String, interface: String, member: String, body: [DBusValue], destination: String?) async {
        signals.withLock { $0.append(Signal(path: path, member: member, body: body, destination: destination)) }
    }

    var all: [Signal] { signals.withLock { $0 } }

    /// Waits up to `timeout` for a signal `member` from `path`.
    func wait(for member: String, path: String, timeout: Duration = .seconds(5)) async -> Signal? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let signal = all.first(where: { $0.member == member && $0.path == path }) { return signal }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}
