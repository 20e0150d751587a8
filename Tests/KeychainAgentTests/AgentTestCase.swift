#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import AttackTestSupport
import CPseudoTerminal
import Foundation
import SecureStorageFoundation
import XCTest

/// What one run of a built executable produced.
struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output parsed as a JSON object.
    func json() throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any], stdout)
    }
}

/// Runs the built `keychaind`, `keychain` and `secure-storage-sample` executables as separate
/// processes on a keychain in a fresh `SECURE_STORAGE_HOME`, with no `XDG_RUNTIME_DIR`: the
/// setting of a root shell in a container, where only the agent can share an unlock.
class AgentTestCase: XCTestCase {
    var scratch: URL!
    var home: URL!
    private var agents: [Process] = []

    override func setUpWithError() throws {
        scratch = URL(fileURLWithPath: "/tmp/kc-agent-\(UUID().uuidString)", isDirectory: true)
        home = scratch.appendingPathComponent("home")
        try FileManager.default.createDirectory(
            at: scratch, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        if FileManager.default.fileExists(atPath: "/run/user/\(getuid())") {
            throw XCTSkip("/run/user/\(getuid()) exists here, so sessions would go there without XDG_RUNTIME_DIR")
        }
    }

    override func tearDownWithError() throws {
        for agent in agents where agent.isRunning {
            kill(agent.processIdentifier, SIGKILL)
            agent.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// An executable of this package built beside the test bundle.
    static func builtExecutable(_ name: String) -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path)
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent(name)
    }

    static let keychain = builtExecutable("keychain")
    static let keychaind = builtExecutable("keychaind")
    static let sample = builtExecutable("secure-storage-sample")

    /// The environment of every process: the test's keychain, no runtime directory, no TPM.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SECURE_STORAGE_HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = nil
        environment["KEYCHAIN_LOG_LEVEL"] = nil
        environment["SECURE_STORAGE_TPM_TCTI"] = "none"
        environment["SECURE_STORAGE_TPM_BINDING"] = nil
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        return environment
    }

    /// A process of `executable`, not started, with the test's environment changed by `changes`.
    func process(_ executable: URL, _ arguments: [String], changing changes: [String: String?] = [:]) throws
        -> Process
    {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            let message = "\(executable.path) is not built; run `swift build --build-tests` first."
            if ProcessInfo.processInfo.environment["REQUIRE_TEST_EXECUTABLES"] != nil { XCTFail(message) }
            throw XCTSkip(message)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = self.environment
        for (name, value) in changes { environment[name] = value }
        process.environment = environment
        return process
    }

    /// Runs `executable arguments…` to its end with `input` on standard input; with
    /// `refusingKeyrings`, started from a thread whose seccomp filter answers keyctl and add_key
    /// with EPERM, as Docker's default profile does (the child inherits it).
    @discardableResult
    func run(
        _ executable: URL, _ arguments: [String], input: String = "", refusingKeyrings: Bool = false,
        changing changes: [String: String?] = [:]
    ) throws -> RunResult {
        let process = try self.process(executable, arguments, changing: changes)
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        if refusingKeyrings { try FilteredStart(process).run() } else { try process.run() }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = DrainedPipe(stdout.fileHandleForReading)
        let errors = DrainedPipe(stderr.fileHandleForReading)
        process.waitUntilExit()
        return RunResult(status: process.terminationStatus, stdout: output.text(), stderr: errors.text())
    }

    /// `keychain arguments…`.
    @discardableResult
    func keychain(_ arguments: String..., input: String = "", refusingKeyrings: Bool = false) throws -> RunResult {
        try run(Self.keychain, arguments, input: input, refusingKeyrings: refusingKeyrings)
    }

    /// A keychain with passphrase `pass` holding the whenUnlocked item svc/a = `secret-a`.
    func makeKeychain() throws {
        XCTAssertStatus(try keychain("create", "--passphrase", input: "pass\n"), 0)
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "svc", "-a", "a", "-w", "secret-a", "--unlock", input: "pass\n"),
            0)
    }

    /// The keychain's vault id (from `keychain status --json`).
    func vaultID() throws -> String {
        try XCTUnwrap(try keychain("status", "--json").json()["vaultID"] as? String)
    }

    /// The agent's abstract name for this keychain and user (root's: the tests run as root).
    func agentName(uid: uid_t = geteuid()) throws -> String {
        "secure-storage/agent/\(uid)/\(try vaultID().lowercased())"
    }

    /// Starts `keychaind --foreground arguments…` and waits until it serves (its log says so);
    /// fails when it exits first.
    /// With `asUser`, it runs as that uid (and gid) through setpriv.
    @discardableResult
    func startAgent(_ arguments: [String] = [], asUser uid: uid_t? = nil, changing changes: [String: String?] = [:])
        throws -> RunningAgent
    {
        let process =
            if let uid {
                try self.process(
                    URL(fileURLWithPath: "/usr/bin/setpriv"),
                    ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", Self.keychaind.path, "--foreground"]
                        + arguments, changing: changes)
            } else {
                try self.process(Self.keychaind, ["--foreground"] + arguments, changing: changes)
            }
        let agent = RunningAgent(process)
        try agent.start()
        agents.append(process)
        guard agent.waitFor("serving", timeout: 20) else {
            process.waitUntilExit()
            XCTFail("keychaind did not start: status \(process.terminationStatus), \(agent.log)")
            throw CocoaError(.featureUnsupported)
        }
        return agent
    }

    func XCTAssertStatus(_ result: RunResult, _ status: Int32, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(
            result.status, status, "stdout: \(result.stdout)\nstderr: \(result.stderr)", file: file, line: line)
    }
}

/// A started keychaind whose standard error is collected as it comes.
final class RunningAgent: @unchecked Sendable {
    let process: Process
    private let collected = LockedText()

    init(_ process: Process) { self.process = process }

    func start() throws {
        let stderr = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        let handle = stderr.fileHandleForReading
        Thread.detachNewThread { [collected] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                collected.append(String(decoding: data, as: UTF8.self))
            }
        }
    }

    var pid: pid_t { process.processIdentifier }

    /// Everything it logged so far.
    var log: String { collected.text }

    /// Waits until its log contains `text` (true) or it exits or `timeout` seconds pass (false).
    func waitFor(_ text: String, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if log.contains(text) { return true }
            if !process.isRunning { return log.contains(text) }
            usleep(20_000)
        }
        return false
    }

    /// Sends SIGTERM and waits for the exit; returns the status.
    func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Text appended from one thread and read from another.
final class LockedText: Sendable {
    private let value = Locked("")
    func append(_ text: String) { value.withLock { $0 += text } }
    var text: String { value.withLock { $0 } }
}
