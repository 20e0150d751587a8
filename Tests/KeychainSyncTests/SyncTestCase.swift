import Foundation
@_spi(Testing) import KeychainCore
@testable import KeychainSync
import PostgresTestSupport
import XCTest

/// A PostgreSQL cluster shared by the sync tests of one process (each test uses its own
/// circles), started on first use and stopped when the process exits.
enum SharedPostgres {
    nonisolated(unsafe) private static var server: PostgresTestServer?
    private static let lock = NSLock()

    /// The cluster, started on first use.
    static func get() throws -> PostgresTestServer {
        lock.lock()
        defer { lock.unlock() }
        if let server { return server }
        let started = try PostgresTestServer()
        server = started
        atexit { SharedPostgres.stopAtExit() }
        return started
    }

    private static func stopAtExit() {
        server?.stop(mode: "immediate")
        if let directory = server?.directory { try? FileManager.default.removeItem(at: directory) }
    }
}

/// Devices (keychains in a temporary directory) syncing through the shared test server.
class SyncTestCase: XCTestCase {
    var postgres: PostgresTestServer!
    var directory: URL!
    let options = KeychainOptions(
        passphraseHardening: .fixed(.insecureForTestingOnly), resumesUnlockSession: false, tpm: nil)

    override func setUpWithError() throws {
        do {
            postgres = try SharedPostgres.get()
        } catch let error as PostgresTestServerUnavailable
            where error.isMissing && ProcessInfo.processInfo.environment["REQUIRE_POSTGRES"] == nil
        {
            throw XCTSkip("PostgreSQL is not installed: \(error)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A new keychain, one device.
    func device(_ name: String, passphrase: String? = nil) throws -> Keychain {
        try Keychain.create(
            at: KeychainLocation(directory: directory.appendingPathComponent(name)), passphrase: passphrase,
            options: options)
    }

    /// Opens `name`'s keychain again (another process would).
    func reopen(_ name: String) throws -> Keychain {
        try Keychain(location: KeychainLocation(directory: directory.appendingPathComponent(name)), options: options)
    }

    /// A circle of the given devices: the first creates it, the others join with its approval.
    func circle(_ devices: [Keychain]) throws -> [KeychainSynchronizer] {
        let founder = KeychainSynchronizer(keychain: devices[0])
        let code = try founder.createCircle(server: postgres.connectionString, deviceName: "device-0")
        var synchronizers = [founder]
        for (index, keychain) in devices.enumerated().dropFirst() {
            let joiner = KeychainSynchronizer(keychain: keychain)
            let approval = try joiner.requestToJoin(
                server: postgres.connectionString, circleCode: code, deviceName: "device-\(index)")
            try founder.approve(approval)
            XCTAssertTrue(try joiner.finishJoining())
            synchronizers.append(joiner)
        }
        return synchronizers
    }

    /// A synchronizable generic password.
    func password(
        _ service: String, _ account: String, _ secret: String, accessibility: Accessibility = .afterFirstUnlock,
        synchronizable: Bool = true
    ) -> NewItem {
        NewItem(
            .genericPassword,
            attributes: [
                .service: .string(service), .account: .string(account), .synchronizable: .number(synchronizable ? 1 : 0)
            ],
            data: Data(secret.utf8), accessibility: accessibility)
    }

    /// The synchronizable generic passwords of a keychain: service/account → secret.
    func passwords(_ keychain: Keychain) throws -> [String: String] {
        var query = Query(.genericPassword, synchronizable: .yes)
        query.accessGroups = nil
        let found = try keychain.findAll(query, returning: [.attributes, .data])
        var result: [String: String] = [:]
        for item in found {
            let key = "\(item.attributes[.service]?.stringValue ?? "")/\(item.attributes[.account]?.stringValue ?? "")"
            result[key] = String(decoding: item.data ?? Data(), as: UTF8.self)
        }
        return result
    }

    /// Every item of a keychain (any class, synchronizable or not) as service/account → secret.
    func allPasswords(_ keychain: Keychain) throws -> [String: String] {
        let query = Query(.genericPassword, synchronizable: .any)
        let found = try keychain.findAll(query, returning: [.attributes, .data])
        var result: [String: String] = [:]
        for item in found where item.attributes[.accessGroup]?.stringValue != SyncStateStore.accessGroup {
            let key = "\(item.attributes[.service]?.stringValue ?? "")/\(item.attributes[.account]?.stringValue ?? "")"
            result[key] = String(decoding: item.data ?? Data(), as: UTF8.self)
        }
        return result
    }

    /// Asserts that `body` throws a ``SyncError`` with `code`.
    func assertSyncError<T>(
        _ code: SyncError.Code, _ body: @autoclosure () throws -> T, _ message: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), message, file: file, line: line) { error in
            XCTAssertEqual((error as? SyncError)?.code, code, "\(error)", file: file, line: line)
        }
    }

    /// `keychain` joins the circle of `member`'s circle code with `member`'s approval.
    @discardableResult
    func join(_ keychain: Keychain, as name: String, approvedBy member: KeychainSynchronizer) throws
        -> KeychainSynchronizer
    {
        let code = try XCTUnwrap(member.status().circleCode)
        let joiner = KeychainSynchronizer(keychain: keychain)
        try member.approve(joiner.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: name))
        XCTAssertTrue(try joiner.finishJoining())
        return joiner
    }

    /// Bytes as PostgreSQL's hex bytea input (without the `\\x`).
    func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }
}
