import DBusTestSupport
import Foundation
import KeychainCore
import SecureStorageDBus
import XCTest

@testable import SecretService

/// Real clients against the provider on a private bus (issue 37, Tests): `secret-tool`
/// (libsecret, which opens a dh-ietf1024-sha256-aes128-cbc-pkcs7 session), Python `keyring` with
/// its SecretService backend, and the secretstorage project's own test suite, unchanged.
final class SecretServiceClientTests: XCTestCase {
    func testSecretToolRoundTripsBothWays() async throws {
        let secretTool = try requireProgram("secret-tool", package: "libsecret-tools")
        let hosted = try await ProviderOnBus.start(in: self)
        func tool(_ arguments: String..., input: String = "") async throws -> ExternalCommand.Outcome {
            try await ExternalCommand(
                executable: secretTool, arguments: arguments, environment: hosted.clientEnvironment(),
                input: Data(input.utf8)
            ).run(timeout: .seconds(60))
        }
        let stored = try await tool(
            "store", "--label=Tool test", "service", "svc-st", "username", "alice", input: "pw-1")
        XCTAssertEqual(stored.status, 0, stored.errors)
        let inKeychain = try await hosted.keychain.find(
            Query(.genericPassword, [.service: "svc-st", .account: "alice"]), returning: [.data])
        XCTAssertEqual(inKeychain.first?.data, Data("pw-1".utf8))

        try hosted.keychain.add(
            NewItem(.genericPassword, attributes: [.service: "svc-kc", .account: "bob"], data: Data("pw-2".utf8)))
        let lookup = try await tool("lookup", "service", "svc-kc", "username", "bob")
        XCTAssertEqual(lookup.status, 0, lookup.errors)
        XCTAssertEqual(lookup.output, "pw-2")

        let search = try await tool("search", "--all", "service", "svc-st")
        XCTAssertEqual(search.status, 0, search.errors)
        // This secret-tool prints the path on stdout and the details on stderr.
        let details = search.output + search.errors
        XCTAssertTrue(details.contains("secret = pw-1"), details)
        XCTAssertTrue(details.contains("label = Tool test"), details)

        let clear = try await tool("clear", "service", "svc-st", "username", "alice")
        XCTAssertEqual(clear.status, 0, clear.errors)
        let cleared = try hosted.keychain.findAll(Query(.genericPassword, [.service: "svc-st"]))
        XCTAssertEqual(cleared.count, 0)
        let gone = try await tool("lookup", "service", "svc-st", "username", "alice")
        XCTAssertNotEqual(gone.status, 0)
        XCTAssertEqual(gone.output, "")
    }

    func testPythonKeyringRoundTripsBothWays() async throws {
        let python = try requireSecretServicePython()
        let hosted = try await ProviderOnBus.start(in: self)
        let set = try await hosted.python(
            python,
            "import keyring, sys; from keyring.backends.SecretService import Keyring; keyring.set_keyring(Keyring());"
                + " keyring.set_password('svc-py', 'alice', 'from-python')")
        XCTAssertEqual(set.status, 0, set.errors)
        let found = try await hosted.keychain.find(
            Query(.genericPassword, [.service: "svc-py", .account: "alice"]), returning: [.data, .attributes])
        XCTAssertEqual(found.first?.data, Data("from-python".utf8))

        try hosted.keychain.add(
            NewItem(
                .genericPassword, attributes: [.service: "svc-tool", .account: "carol"], data: Data("from-tool".utf8)))
        let get = try await hosted.python(
            python,
            "import keyring; from keyring.backends.SecretService import Keyring; keyring.set_keyring(Keyring());"
                + " print(keyring.get_password('svc-tool', 'carol'), end='');"
                + " keyring.delete_password('svc-py', 'alice')"
        )
        XCTAssertEqual(get.status, 0, get.errors)
        XCTAssertEqual(get.output, "from-tool")
        let deleted = try hosted.keychain.findAll(Query(.genericPassword, [.service: "svc-py"]))
        XCTAssertEqual(deleted.count, 0)
    }

    /// The secretstorage project's own tests (its sdist's `tests/`), unchanged, against the provider.
    func testSecretStorageProjectSuitePasses() async throws {
        let python = try requireSecretServicePython()
        let sdist = try requireSecretStorageSourceDistribution()
        let hosted = try await ProviderOnBus.start(in: self)
        let unpacked = hosted.keychainDirectory.appendingPathComponent("sdist")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        let untar = try await ExternalCommand(
            executable: "/bin/tar", arguments: ["-xzf", sdist, "-C", unpacked.path, "--strip-components=1"],
            environment: [:]
        ).run()
        XCTAssertEqual(untar.status, 0, untar.errors)
        let suite = try await ExternalCommand(
            executable: python, arguments: ["-m", "unittest", "discover", "-v", "-s", "tests", "-t", "."],
            environment: hosted.clientEnvironment(), workingDirectory: unpacked
        ).run(timeout: .seconds(300))
        let summary = suite.errors.split(separator: "\n").filter {
            $0.hasPrefix("Ran ") || $0.hasPrefix("OK") || $0.hasPrefix("FAILED")
        }
        print("secretstorage suite: \(summary.joined(separator: "; "))")
        XCTAssertEqual(suite.status, 0, suite.errors)
        XCTAssertTrue(suite.errors.contains("\nOK"), suite.errors)
    }

    /// Issue 37 item 3: locked with no prompter, a real client's unlock is dismissed within 2 s.
    func testLockedKeychainDismissesAClientsUnlockWithinTwoSeconds() async throws {
        let python = try requireSecretServicePython()
        let hosted = try await ProviderOnBus.start(in: self)
        try await hosted.unlocker.lock()
        let outcome = try await hosted.python(
            python,
            """
            import time, secretstorage
            c = secretstorage.dbus_init()
            col = secretstorage.get_default_collection(c)
            start = time.monotonic()
            print(col.is_locked(), col.unlock(), round(time.monotonic() - start, 3))
            print(list(secretstorage.search_items(c, {'service': 'x'})))
            """)
        XCTAssertEqual(outcome.status, 0, outcome.errors)
        let lines = outcome.output.split(separator: "\n")
        let words = lines.first?.split(separator: " ") ?? []
        XCTAssertEqual(words.prefix(2), ["True", "True"], outcome.output)
        XCTAssertLessThan(Double(words.last ?? "99") ?? 99, 2.0)
        XCTAssertEqual(lines.last, "[]")
    }

    /// An unlock by another process reaches a client whose prompt is waiting.
    func testUnlockElsewhereReachesAWaitingClient() async throws {
        let python = try requireSecretServicePython()
        let hosted = try await ProviderOnBus.start(in: self)
        try await hosted.unlocker.lock()
        hosted.unlocker.setBehaviour(.waitsForUnlockElsewhere)
        let unlocker = hosted.unlocker
        let elsewhere = Task {
            while unlocker.requestCount == 0 { try await Task.sleep(for: .milliseconds(20)) }
            try unlocker.unlockElsewhere()
        }
        let outcome = try await hosted.python(
            python,
            """
            import secretstorage
            c = secretstorage.dbus_init()
            col = secretstorage.get_default_collection(c)
            print(col.unlock(), col.is_locked())
            """, timeout: .seconds(30))
        try await elsewhere.value
        XCTAssertEqual(outcome.status, 0, outcome.errors)
        XCTAssertEqual(outcome.output, "False False\n")
    }
}
