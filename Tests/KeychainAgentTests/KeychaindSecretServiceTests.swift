#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import DBusTestSupport
import Foundation
import XCTest

/// keychaind's Secret Service end to end: the built `keychaind` on a private session bus, reached
/// by clients nobody here wrote (Python `secretstorage` with its own test suite, `keyring`,
/// libsecret's `secret-tool`) and by the `keychain` tool and the facade on the same keychain.
final class KeychaindSecretServiceTests: AgentTestCase {
    private var bus: PrivateBus!

    override func setUpWithError() throws {
        try super.setUpWithError()
        bus = try startPrivateBus()
    }

    /// The Python of a venv with secretstorage and keyring.
    private func requirePython() throws -> URL { URL(fileURLWithPath: try requireSecretServicePython()) }

    /// The session bus and the keyring backend for every client process.
    private var onBus: [String: String?] {
        [
            "DBUS_SESSION_BUS_ADDRESS": bus.address,
            "PYTHON_KEYRING_BACKEND": "keyring.backends.SecretService.Keyring"
        ]
    }

    /// A keychain with passphrase `pass`, and keychaind on the bus, unlocked from a 0600 file.
    @discardableResult
    private func startServingAgent() throws -> RunningAgent {
        let passphraseFile = scratch.appendingPathComponent("passphrase")
        if !FileManager.default.fileExists(atPath: passphraseFile.path) {
            try makeKeychain()
            FileManager.default.createFile(
                atPath: passphraseFile.path, contents: Data("pass".utf8), attributes: [.posixPermissions: 0o600])
        }
        let agent = try startAgent(["--passphrase-file", passphraseFile.path], changing: onBus)
        XCTAssertTrue(agent.waitFor("serving the Secret Service", timeout: 20), agent.log)
        return agent
    }

    private func python(_ script: String, timeout: TimeInterval = 60) throws -> RunResult {
        try run(try requirePython(), ["-c", script], changing: onBus)
    }

    private func secretTool(_ arguments: [String], input: String = "") throws -> RunResult {
        try run(
            URL(fileURLWithPath: try requireProgram("secret-tool", package: "libsecret-tools")), arguments,
            input: input, changing: onBus)
    }

    /// Issue 37: the secretstorage project's own test suite, unchanged, against keychaind.
    func testSecretStorageProjectSuitePassesAgainstKeychaind() throws {
        let python = try requirePython()
        let sdist = try requireSecretStorageSourceDistribution()
        try startServingAgent()
        let unpacked = scratch.appendingPathComponent("secretstorage")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        XCTAssertStatus(
            try run(URL(fileURLWithPath: "/bin/tar"), ["-xzf", sdist, "-C", unpacked.path, "--strip-components=1"]), 0)
        let suite = try run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "cd \"$1\" && exec \"$2\" -m unittest discover -v -s tests -t .", "sh", unpacked.path, python.path],
            changing: onBus)
        XCTAssertStatus(suite, 0)
        XCTAssertTrue(suite.stderr.contains("\nOK"), suite.stderr)
        XCTAssertFalse(suite.stderr.contains("FAILED"), suite.stderr)
    }

    /// Items go both ways between D-Bus clients, the tool and the facade.
    func testClientsShareItemsWithTheToolAndTheFacade() throws {
        try startServingAgent()
        // secret-tool (libsecret, a DH session) → the tool.
        XCTAssertStatus(
            try secretTool(["store", "--label=Deploy token", "service", "ci", "username", "deploy"], input: "tok-1"),
            0)
        let found = try keychain("find-generic-password", "-s", "ci", "-a", "deploy", "-w")
        XCTAssertStatus(found, 0)
        XCTAssertEqual(found.stdout, "tok-1\n")
        // Python keyring → the tool and the facade.
        XCTAssertStatus(try python("import keyring; keyring.set_password('com.acme.app', 'db', 'pw-2')"), 0)
        XCTAssertEqual(try keychain("find-generic-password", "-s", "com.acme.app", "-a", "db", "-w").stdout, "pw-2\n")
        let facade = try run(Self.sample, ["get", "com.acme.app", "db"])
        XCTAssertStatus(facade, 0)
        XCTAssertTrue(facade.stdout.contains("pw-2"), facade.stdout)
        // The tool → secret-tool and keyring.
        XCTAssertStatus(try keychain("add-generic-password", "-s", "api", "-a", "alice", "--stdin", input: "k-3"), 0)
        XCTAssertEqual(try secretTool(["lookup", "service", "api", "username", "alice"]).stdout, "k-3")
        XCTAssertEqual(try python("import keyring; print(keyring.get_password('api', 'alice'))").stdout, "k-3\n")
        // secret-tool clear removes the keychain item.
        XCTAssertStatus(try secretTool(["clear", "service", "ci", "username", "deploy"]), 0)
        XCTAssertStatus(try keychain("find-generic-password", "-s", "ci", "-a", "deploy"), 44)
    }

    /// Locked with no prompter: a client's unlock is dismissed within 2 s (keyring raises
    /// KeyringLocked, no secret); `keychain unlock` from another process then reaches the clients.
    func testLockedAgentAnswersAtOnceAndAnUnlockElsewhereReachesClients() throws {
        try startServingAgent()
        XCTAssertStatus(try python("import keyring; keyring.set_password('svc2', 'bob', 'before-lock')"), 0)
        XCTAssertStatus(try keychain("lock"), 0)
        let script = """
            import time, keyring, keyring.errors
            start = time.monotonic()
            try:
                print('read', keyring.get_password('svc2', 'bob'))
            except keyring.errors.KeyringLocked:
                print('locked')
            print('seconds %.3f' % (time.monotonic() - start))
            """
        let locked = try python(script)
        XCTAssertStatus(locked, 0)
        XCTAssertTrue(locked.stdout.hasPrefix("locked\n"), locked.stdout + locked.stderr)
        XCTAssertFalse(locked.stdout.contains("before-lock"))
        let seconds = try XCTUnwrap(
            Double(locked.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
        XCTAssertLessThan(seconds, 2, "a locked keychain answers within 2 s")
        XCTAssertStatus(try secretTool(["lookup", "service", "svc2", "username", "bob"]), 1)

        XCTAssertStatus(try keychain("unlock", input: "pass\n"), 0)
        let unlocked = try python(script)
        XCTAssertTrue(unlocked.stdout.hasPrefix("read before-lock\n"), unlocked.stdout + unlocked.stderr)
        XCTAssertEqual(try secretTool(["lookup", "service", "svc2", "username", "bob"]).stdout, "before-lock")
    }

    /// keychaind killed with SIGKILL while a client writes: every item the client saw acknowledged
    /// is there after a restart, the client got an error rather than a hang, and a new connection
    /// of the client works.
    func testSigkillDuringWritesLosesNoAcknowledgedWrite() throws {
        let agent = try startServingAgent()
        let acknowledged = scratch.appendingPathComponent("acknowledged")
        let writer = try process(
            try requirePython(),
            [
                "-c",
                """
                import sys, secretstorage
                out = open(sys.argv[1], 'w', buffering=1)
                connection = secretstorage.dbus_init()
                collection = secretstorage.get_default_collection(connection)
                try:
                    for i in range(100000):
                        collection.create_item('k%d' % i, {'service': 'kill', 'username': 'u%d' % i}, b'secret-%d' % i)
                        out.write('%d\\n' % i)
                except Exception as error:
                    out.write('error %s\\n' % type(error).__name__)
                """,
                acknowledged.path
            ], changing: onBus)
        writer.standardOutput = FileHandle.nullDevice
        writer.standardError = FileHandle.nullDevice
        try writer.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline,
            ((try? String(contentsOf: acknowledged, encoding: .utf8)) ?? "").split(separator: "\n").count < 40
        {
            usleep(20_000)
        }
        kill(agent.pid, SIGKILL)
        agent.process.waitUntilExit()
        let exited = Date().addingTimeInterval(30)
        while writer.isRunning, Date() < exited { usleep(20_000) }
        XCTAssertFalse(writer.isRunning, "the client got an error instead of hanging")
        if writer.isRunning { writer.terminate() }
        let lines = try String(contentsOf: acknowledged, encoding: .utf8).split(separator: "\n")
        XCTAssertTrue(lines.last?.hasPrefix("error ") ?? false, "the client saw the agent go: \(lines.suffix(3))")
        let written = lines.compactMap { Int($0) }
        XCTAssertGreaterThanOrEqual(written.count, 40)

        try startServingAgent()
        let check = try python(
            """
            import secretstorage
            connection = secretstorage.dbus_init()
            collection = secretstorage.get_default_collection(connection)
            missing = []
            for i in range(\(written.count)):
                items = list(collection.search_items({'service': 'kill', 'username': 'u%d' % i}))
                if len(items) != 1 or items[0].get_secret() != b'secret-%d' % i:
                    missing.append(i)
            print('missing', missing)
            """)
        XCTAssertStatus(check, 0)
        XCTAssertEqual(check.stdout, "missing []\n")
    }

    /// Issue 37 item 3: with a terminal serving prompts, a D-Bus client's `Unlock` prompts there;
    /// the typed passphrase unlocks for every client, and the prompt completes with the unlocked
    /// collection. The prompter names the caller (python3 and its pid).
    func testAClientsUnlockPromptsAtTheTerminalPrompter() throws {
        try startServingAgent()
        XCTAssertStatus(try python("import keyring; keyring.set_password('svc3', 'carol', 'kept')"), 0)
        XCTAssertStatus(try keychain("lock"), 0)
        let prompter = try PrompterTerminal(try process(Self.keychain, ["unlock", "--serve-prompts", "--timeout", "0"]))
        XCTAssertTrue(prompter.waitFor("answering unlock requests"), prompter.log)
        let client = try process(
            try requirePython(),
            [
                "-c",
                """
                import secretstorage
                connection = secretstorage.dbus_init()
                collection = secretstorage.get_default_collection(connection)
                print('dismissed' if collection.unlock() else 'unlocked', flush=True)
                item = next(collection.search_items({'service': 'svc3', 'username': 'carol'}))
                print(item.get_secret().decode(), flush=True)
                """
            ], changing: onBus)
        let output = Pipe()
        client.standardOutput = output
        client.standardError = output
        try client.run()
        XCTAssertTrue(prompter.waitFor("asks to unlock the keychain."), prompter.log)
        XCTAssertTrue(prompter.log.contains("python3") || prompter.log.contains("python"), prompter.log)
        XCTAssertTrue(prompter.waitFor("Passphrase"), prompter.log)
        prompter.type("pass\n")
        client.waitUntilExit()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(client.terminationStatus, 0, printed)
        XCTAssertEqual(printed, "unlocked\nkept\n")
        XCTAssertEqual(try keychain("status", "--json").json()["lockState"] as? String, "unlocked")
    }

    /// `keychaind install`'s D-Bus activation file, placed in the bus's service directory: the
    /// first Secret Service client starts keychaind, which serves it.
    func testTheInstalledActivationFileStartsKeychaindForTheFirstClient() throws {
        bus.stop()
        XCTAssertStatus(try keychain("create"), 0)
        var busEnvironment = environment
        busEnvironment["HOME"] = scratch.path
        bus = try startPrivateBus(environment: busEnvironment)
        XCTAssertStatus(try run(Self.keychaind, ["install"], changing: ["HOME": scratch.path, "XDG_DATA_HOME": nil]), 0)
        let activation = scratch.appendingPathComponent(".local/share/dbus-1/services/org.freedesktop.secrets.service")
        try FileManager.default.copyItem(
            at: activation, to: bus.serviceDirectory.appendingPathComponent("org.freedesktop.secrets.service"))
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "activated", "-a", "dana", "--stdin", input: "on-demand"), 0)

        let lookup = try secretTool(["lookup", "service", "activated", "username", "dana"])
        let status = try keychain("status", "--json").json()
        let agentPID = (status["agent"] as? [String: Any])?["pid"] as? Int
        if let agentPID { addTeardownBlock { kill(pid_t(agentPID), SIGKILL) } }
        XCTAssertStatus(lookup, 0)
        XCTAssertEqual(lookup.stdout, "on-demand")
        XCTAssertNotNil(agentPID, "the activated keychaind serves the agent socket too: \(status)")
    }
}
