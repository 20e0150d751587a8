#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import AuthenticationTestSupport
import Configuration
import Foundation
@_spi(Testing) import KeychainCore
import KeychainServices
import SecureStorage
import SecureStorageConfiguration
import Synchronization
import XCTest

/// `KeychainConfigProvider` through swift-configuration's own `ConfigReader`: values, types,
/// fallthrough, secrecy in access reports, errors, snapshots and watches.
final class KeychainConfigProviderTests: XCTestCase {
    private var directory: URL!
    private var keychain: Keychain!
    private var storage: SecureStorage!
    private let reports = AccessRecorder()

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)")
        keychain = try Keychain(
            location: KeychainLocation(directory: directory),
            options: KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly)))
        SecItemEnvironment.useKeychain(keychain)
        storage = SecureStorage(service: "com.acme.api")  // .secret: readable only while unlocked
    }

    override func tearDownWithError() throws {
        SecItemEnvironment.reset()
        keychain = nil
        try? FileManager.default.removeItem(at: directory)
    }

    private func reader(_ provider: KeychainConfigProvider? = nil, fallback: [AbsoluteConfigKey: ConfigValue] = [:])
        -> ConfigReader
    {
        ConfigReader(
            providers: [
                provider ?? KeychainConfigProvider(service: "com.acme.api"), InMemoryProvider(values: fallback)
            ],
            accessReporter: reports)
    }

    func testValuesOfEveryTypeAreServedAndMarkedSecret() throws {
        try storage.set("pa55 word ", for: "database.password")
        try storage.set(8080, for: "api.port")
        try storage.set(true, for: "api.tls")
        try storage.set("0.25", for: "api.sampleRate")
        try storage.set("admin, ops,dev", for: "api.roles")
        try storage.set("1,2, 3", for: "api.shards")
        try storage.set(Data([0, 0xFF, 0x80, 7]), for: "signing.key")
        let config = reader(fallback: ["database.password": "from-memory", "database.host": "db.internal"])

        XCTAssertEqual(
            try config.requiredString(forKey: "database.password"), "pa55 word ",
            "the keychain comes first, exact bytes")
        XCTAssertEqual(config.string(forKey: "database.host"), "db.internal", "keys without an item fall through")
        XCTAssertEqual(try config.requiredInt(forKey: "api.port"), 8080)
        XCTAssertEqual(try config.requiredBool(forKey: "api.tls"), true)
        XCTAssertEqual(try config.requiredDouble(forKey: "api.sampleRate"), 0.25)
        XCTAssertEqual(try config.requiredStringArray(forKey: "api.roles"), ["admin", "ops", "dev"])
        XCTAssertEqual(try config.requiredIntArray(forKey: "api.shards"), [1, 2, 3])
        XCTAssertEqual(try config.requiredBytes(forKey: "signing.key"), [0, 0xFF, 0x80, 7])
        XCTAssertNil(config.string(forKey: "nothing.here"))
        XCTAssertEqual(try config.scoped(to: "database").requiredString(forKey: "password"), "pa55 word ")

        let keychainResults = reports.events.flatMap(\.providerResults).filter {
            $0.providerName == "KeychainConfigProvider[service: com.acme.api]"
        }
        let values = keychainResults.compactMap { try? $0.result.get().value }
        XCTAssertEqual(values.count, 8, "eight reads found an item")
        XCTAssertTrue(
            values.allSatisfy(\.isSecret), "every keychain value is marked secret without isSecret: at the call")
        for event in reports.events {
            XCTAssertFalse("\(event)".contains("pa55"), "the access report redacts: \(event)")
        }
    }

    func testAsyncFetchReadsOffTheCallersExecutor() async throws {
        try storage.set("pa55", for: "database.password")
        let config = reader()
        let password = try await config.fetchRequiredString(forKey: "database.password")
        XCTAssertEqual(password, "pa55")
        let missing = try await config.fetchString(forKey: "database.user")
        XCTAssertNil(missing)
    }

    func testAccountNamingForMigratedEnvironmentFilesAndCustomMappings() throws {
        try storage.set("postgres://app:pa55@db/app", for: "DATABASE_URL")
        try storage.set("tok", for: "secrets/stripe")
        let environment = reader(KeychainConfigProvider(service: "com.acme.api", accountNaming: .environmentVariable))
        XCTAssertEqual(environment.string(forKey: "database.url"), "postgres://app:pa55@db/app")
        XCTAssertEqual(environment.string(forKey: ConfigKey(["database-url"])), "postgres://app:pa55@db/app")

        let custom = KeychainConfigProvider(
            service: "com.acme.api",
            accountNaming: .custom { key in
                key.components.first == "secrets" ? key.components.joined(separator: "/") : nil
            })
        let config = reader(custom, fallback: ["DATABASE_URL": "from-memory"])
        XCTAssertEqual(config.string(forKey: "secrets.stripe"), "tok")
        XCTAssertEqual(
            config.string(forKey: ConfigKey(["DATABASE_URL"])), "from-memory", "keys the mapping declines fall through")
    }

    func testALockedKeychainIsAnErrorAndNeverFallsBack() throws {
        try storage.set("pa55", for: "database.password")
        try keychain.setPassphrase("server passphrase")
        try SecItemEnvironment.lock()
        let config = reader(fallback: ["database.password": "stale-from-environment"])

        XCTAssertThrowsError(try config.requiredString(forKey: "database.password")) { error in
            XCTAssertEqual(
                error as? KeychainConfigError,
                .unreadable(key: "database.password", service: "com.acme.api", account: "database.password", .locked))
            XCTAssertTrue("\(error)".contains("could not be read"), "\(error)")
            XCTAssertFalse("\(error)".contains("pa55"))
        }
        XCTAssertNil(config.string(forKey: "database.password"), "never the stale fallback")

        try SecureStorage.unlock(passphrase: "server passphrase")
        XCTAssertEqual(try config.requiredString(forKey: "database.password"), "pa55")
    }

    func testValuesOfAnotherTypeAreRefusedWithoutShowingThem() throws {
        try storage.set("80x0", for: "api.port")
        try storage.set(Data([0xC3, 0x28, 0xFF]), for: "api.token")
        try storage.set("1,two", for: "api.shards")
        let config = reader(fallback: ["api.port": 1])

        XCTAssertThrowsError(try config.requiredInt(forKey: "api.port")) { error in
            XCTAssertEqual(
                error as? KeychainConfigError,
                .notConvertible(key: "api.port", service: "com.acme.api", account: "api.port", type: .int))
            XCTAssertTrue(
                "\(error)".contains("keychain add-generic-password -U -s com.acme.api -a api.port -w"), "\(error)")
            XCTAssertFalse("\(error)".contains("80x0"))
        }
        XCTAssertThrowsError(
            try config.requiredString(forKey: "api.token"), "bytes that are not UTF-8 are not a string")
        XCTAssertEqual(try config.requiredBytes(forKey: "api.token"), [0xC3, 0x28, 0xFF])
        XCTAssertThrowsError(try config.requiredIntArray(forKey: "api.shards"))
        for event in reports.events { XCTAssertFalse("\(event)".contains("80x0"), "\(event)") }
    }

    func testASnapshotIsOneMomentOfTheKeychain() throws {
        try storage.set("user-1", for: "database.user")
        try storage.set("pass-1", for: "database.password")
        let config = reader()
        let snapshot = config.snapshot()
        try storage.set("pass-2", for: "database.password")
        try storage.removeValue(for: "database.user")

        XCTAssertEqual(snapshot.string(forKey: "database.user"), "user-1")
        XCTAssertEqual(snapshot.string(forKey: "database.password"), "pass-1")
        let later = config.snapshot()
        XCTAssertNil(later.string(forKey: "database.user"))
        XCTAssertEqual(later.string(forKey: "database.password"), "pass-2")
        XCTAssertEqual(config.string(forKey: "database.password"), "pass-2", "plain reads are never cached")

        try keychain.setPassphrase("server passphrase")
        try SecItemEnvironment.lock()
        let locked = config.snapshot()
        XCTAssertThrowsError(try locked.requiredString(forKey: "database.password")) { error in
            guard let error = error as? KeychainConfigError, error.code == .unreadable, error.keychainError == .locked
            else { return XCTFail("\(error)") }
        }
    }

    /// Snapshots and polls never ask the user: a value stored with requireUserPresence is read
    /// (with one prompt) only when a key naming it is read, and a watch asks again only after the
    /// item changed. Neither `description` nor `dump` of a snapshot shows a value.
    func testSnapshotsAndWatchesNeverPromptOnTheirOwn() async throws {
        let authenticator = ScriptedAuthenticator()
        SecItemEnvironment.authenticator = authenticator
        try authenticator.enroll(in: keychain)
        try storage.set("plain-value", for: "database.password")
        try storage.set(Data("recovery-1".utf8), for: "recovery.code", requireUserPresence: true)
        try storage.set(Data("signing-1".utf8), for: "signing.seed", requireUserPresence: true)
        let config = reader(KeychainConfigProvider(service: "com.acme.api", pollInterval: .milliseconds(10)))

        XCTAssertEqual(try config.requiredString(forKey: "database.password"), "plain-value")
        let snapshot = config.snapshot()
        XCTAssertEqual(snapshot.string(forKey: "database.password"), "plain-value")
        XCTAssertEqual(authenticator.prompts, 0, "taking a snapshot and reading a plain value never asks")
        XCTAssertEqual(snapshot.string(forKey: "recovery.code"), "recovery-1")
        XCTAssertEqual(snapshot.string(forKey: "recovery.code"), "recovery-1")
        XCTAssertEqual(authenticator.prompts, 1, "the protected value was asked for once")

        let provider = KeychainConfigProvider(service: "com.acme.api")
        let plainSnapshot = provider.snapshot()
        var dumped = ""
        dump(plainSnapshot, to: &dumped)
        for shown in ["\(plainSnapshot)", dumped, String(reflecting: plainSnapshot)] {
            XCTAssertFalse(shown.contains("plain-value") || shown.contains("112, 108, 97"), "no value shown: \(shown)")
        }
        XCTAssertEqual("\(plainSnapshot)", "KeychainConfigSnapshot(service: com.acme.api, 3 items)")

        let storage = self.storage!
        let seen = try await withDeadline(seconds: 30) {
            try await config.watchString(forKey: "recovery.code") { updates in
                var iterator = updates.makeAsyncIterator()
                let first = try await iterator.next() ?? "end"
                try await Task.sleep(for: .milliseconds(200))  // about 20 polls
                try storage.set(Data("recovery-2".utf8), for: "recovery.code")
                let second = try await iterator.next() ?? "end"
                return [first, second]
            }
        }
        XCTAssertEqual(seen, ["recovery-1", "recovery-2"])
        XCTAssertEqual(authenticator.prompts, 3, "one prompt per delivered value, none per poll")

        let snapshots = try await withDeadline(seconds: 30) {
            try await config.watchSnapshot { updates in
                var iterator = updates.makeAsyncIterator()
                _ = try await iterator.next()
                try await Task.sleep(for: .milliseconds(200))
                try storage.set("plain-2", for: "database.password")
                return try await iterator.next()?.string(forKey: "database.password")
            }
        }
        XCTAssertEqual(snapshots, "plain-2")
        XCTAssertEqual(authenticator.prompts, 3, "snapshot watches never ask")
    }

    func testWatchesDeliverChanges() async throws {
        try storage.set("v1", for: "api.token")
        let config = reader(KeychainConfigProvider(service: "com.acme.api", pollInterval: .milliseconds(20)))
        let storage = self.storage!
        let seen = try await withDeadline(seconds: 30) {
            try await config.watchString(forKey: "api.token") { updates in
                var iterator = updates.makeAsyncIterator()
                var seen: [String?] = []
                seen.append(try await iterator.next() ?? "end")
                try storage.set("v2", for: "api.token")
                seen.append(try await iterator.next() ?? "end")
                try storage.removeValue(for: "api.token")
                seen.append(try await iterator.next() ?? "end")
                return seen
            }
        }
        XCTAssertEqual(seen, ["v1", "v2", nil])

        try storage.set("a", for: "database.password")
        let snapshots = try await withDeadline(seconds: 30) {
            try await config.watchSnapshot { updates in
                var iterator = updates.makeAsyncIterator()
                let first = try await iterator.next()?.string(forKey: "database.password")
                try storage.set("b", for: "database.password")
                let second = try await iterator.next()?.string(forKey: "database.password")
                return [first, second]
            }
        }
        XCTAssertEqual(snapshots, ["a", "b"])
    }
}

/// Every access event a `ConfigReader` reported.
final class AccessRecorder: AccessReporter, Sendable {
    private let recorded = Mutex<[AccessEvent]>([])
    var events: [AccessEvent] { recorded.withLock { $0 } }
    func report(_ event: AccessEvent) { recorded.withLock { $0.append(event) } }
}

/// A watch delivered nothing within its deadline.
struct DeadlinePassed: Error { var seconds: Double }

/// Runs `body`, failing instead of hanging when it takes longer than `seconds`.
func withDeadline<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw DeadlinePassed(seconds: seconds) }
        return value
    }
}
#endif
