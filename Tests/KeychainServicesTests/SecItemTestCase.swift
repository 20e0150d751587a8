#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux implementation (SecItemEnvironment, KeychainCore); on Apple platforms the
// SecItem calls go to the real Keychain, which a test bundle cannot use without entitlements.
import AuthenticationTestSupport
import Foundation
@_spi(Testing) import KeychainCore
import KeychainServices
import XCTest

/// Each test gets a fresh keychain and a known application identity:
/// application identifier `TEAM.com.acme.app`, entitled groups `TEAM.com.acme.shared`, then the app id.
class SecItemTestCase: XCTestCase {
    var directory: URL!
    var keychain: Keychain!
    static let sharedGroup = "TEAM.com.acme.shared"
    static let appGroup = "TEAM.com.acme.app"

    /// The TPM the test's keychain is bound to; none unless a suite overrides it.
    func tpmForKeychain() throws -> TPMDevice? { nil }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("secitem-\(UUID().uuidString)")
        keychain = try Keychain(
            location: KeychainLocation(directory: directory),
            options: KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly), tpm: tpmForKeychain()))
        SecItemEnvironment.useKeychain(keychain)
        SecItemEnvironment.applicationIdentity = ApplicationIdentity(
            applicationIdentifier: Self.appGroup, accessGroups: [Self.sharedGroup])
    }

    override func tearDownWithError() throws {
        SecItemEnvironment.reset()
        keychain = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// A generic password dictionary.
    func password(_ account: String = "alice", service: String = "svc", _ extra: [String: Any] = [:]) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account
        ].merging(extra) { $1 }
    }

    @discardableResult
    func add(_ dictionary: [String: Any], data: String? = "secret") -> OSStatus {
        var dictionary = dictionary
        if let data { dictionary[kSecValueData as String] = Data(data.utf8) }
        return SecItemAdd(dictionary as CFDictionary, nil)
    }

    /// Adds an item and returns its persistent reference.
    func persistentReference(of item: [String: Any]) throws -> Data {
        var result: AnyObject?
        XCTAssertEqual(
            SecItemAdd(item.merging([kSecReturnPersistentRef as String: true]) { $1 } as CFDictionary, &result),
            errSecSuccess)
        return try XCTUnwrap(result as? Data)
    }

    func update(_ query: [String: Any], _ changes: [String: Any]) -> OSStatus {
        SecItemUpdate(query as CFDictionary, changes as CFDictionary)
    }

    func copy(_ query: [String: Any]) -> (status: OSStatus, result: AnyObject?) {
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }
}

/// One row of a spec table: a situation, the section it comes from, and the status Apple returns.
struct StatusCase {
    let situation: String
    let spec: String
    let expected: OSStatus
    let run: (SecItemTestCase) throws -> OSStatus

    init(
        _ situation: String, _ spec: String, _ expected: OSStatus, _ run: @escaping (SecItemTestCase) throws -> OSStatus
    ) {
        self.situation = situation
        self.spec = spec
        self.expected = expected
        self.run = run
    }
}

extension SecItemTestCase {
    /// Runs every row on its own fresh keychain and reports each failing row by name and section.
    func check(_ cases: [StatusCase], file: StaticString = #filePath, line: UInt = #line) throws {
        for row in cases {
            try tearDownWithError()
            try setUpWithError()
            let status = try row.run(self)
            XCTAssertEqual(
                status, row.expected,
                "\(row.spec) \(row.situation): got \(status) (\(SecCopyErrorMessageString(status, nil) ?? ""))",
                file: file, line: line)
        }
    }
}
/// A ``SecItemTestCase`` whose keychain has an enrolled ``ScriptedAuthenticator``, installed as
/// `SecItemEnvironment.authenticator`: each test scripts what the "user" answers.
class AuthenticatedSecItemTestCase: SecItemTestCase {
    var authenticator: ScriptedAuthenticator!

    override func setUpWithError() throws {
        try super.setUpWithError()
        authenticator = ScriptedAuthenticator()
        SecItemEnvironment.authenticator = authenticator
        try authenticator.enroll(in: SecItemEnvironment.keychain())
    }
}
#endif
