#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import XCTest

/// Issue 37, item 1: one unlock through keychaind reaches every process of the user, with no
/// `XDG_RUNTIME_DIR` and the kernel keyring blocked (Docker's seccomp profile); a lock through
/// it reaches every process; a second keychaind does not take over; a dead or stopped agent
/// leaves clients working without it, with no hang.
final class AgentUnlockSharingTests: AgentTestCase {
    func testOneUnlockReachesTheToolAndTheFacadeWithoutRuntimeDirectoryOrKeyring() throws {
        try makeKeychain()
        // Control: here, without an agent, an unlock cannot be kept at all.
        XCTAssertStatus(try keychain("unlock", input: "pass\n", refusingKeyrings: true), 53)
        let agent = try startAgent()

        let unlocked = try keychain("unlock", "--timeout", "0", input: "pass\n", refusingKeyrings: true)
        XCTAssertStatus(unlocked, 0)
        XCTAssertTrue(unlocked.stderr.contains("by keychaind (pid \(agent.pid))"), unlocked.stderr)
        let found = try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w", refusingKeyrings: true)
        XCTAssertStatus(found, 0)
        XCTAssertEqual(found.stdout, "secret-a\n")
        let facade = try run(Self.sample, ["get", "svc", "a"], refusingKeyrings: true)
        XCTAssertEqual(facade.stdout, "secret-a\n", "the facade resumes the agent's session: \(facade.stderr)")

        let status = try keychain("status", "--json", refusingKeyrings: true).json()
        let reported = try XCTUnwrap(status["agent"] as? [String: Any])
        XCTAssertEqual(reported["pid"] as? Int, Int(agent.pid))
        XCTAssertEqual(reported["lockState"] as? String, "unlocked")
        XCTAssertFalse(agent.log.contains("pass\n"), "no passphrase in the agent's log")
    }

    func testALockThroughTheAgentLocksEveryProcess() throws {
        try makeKeychain()
        let agent = try startAgent()
        XCTAssertStatus(try keychain("unlock", "--timeout", "0", input: "pass\n"), 0)
        XCTAssertEqual(try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w").stdout, "secret-a\n")

        let locked = try keychain("lock", refusingKeyrings: true)
        XCTAssertStatus(locked, 0)
        XCTAssertTrue(locked.stderr.contains("keychaind (pid \(agent.pid))"), locked.stderr)
        XCTAssertStatus(try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w"), 51)
        XCTAssertNotEqual(try run(Self.sample, ["get", "svc", "a"]).stdout, "secret-a\n")
        let status = try keychain("status", "--json").json()
        XCTAssertEqual((status["agent"] as? [String: Any])?["lockState"] as? String, "locked")
        XCTAssertTrue(status["unlockSession"] is NSNull, "the session record is gone: \(status)")
    }

    func testAWrongPassphraseThroughTheAgentIsReportedAsWrong() throws {
        try makeKeychain()
        try startAgent()
        let wrong = try keychain("unlock", input: "wrong\n")
        XCTAssertStatus(wrong, 50)
        XCTAssertTrue(wrong.stderr.contains("not correct"), wrong.stderr)
        XCTAssertFalse(wrong.stderr.contains("wrong\n"), wrong.stderr)
    }

    func testASecondAgentDoesNotTakeOver() throws {
        try makeKeychain()
        let first = try startAgent()
        let second = try run(Self.keychaind, ["--foreground"])
        XCTAssertStatus(second, 45)
        XCTAssertTrue(second.stderr.contains("already running for this keychain (pid \(first.pid))"), second.stderr)
        XCTAssertTrue(first.process.isRunning)
        let status = try keychain("status", "--json").json()
        XCTAssertEqual((status["agent"] as? [String: Any])?["pid"] as? Int, Int(first.pid), "the first one serves")
    }

    func testAnUnattendedUnlockAtStartFromAPassphraseFile() throws {
        try makeKeychain()
        let file = scratch.appendingPathComponent("passphrase")
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: file.path, contents: Data("pass\n".utf8), attributes: [.posixPermissions: 0o600]))
        let agent = try startAgent(["--passphrase-file", file.path])
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w", refusingKeyrings: true).stdout,
            "secret-a\n")
        // SIGTERM: the agent ends the session it kept; the keychain and its items stay.
        XCTAssertEqual(agent.terminate(), 0)
        XCTAssertStatus(try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w"), 51)
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w", "--passphrase-file", file.path).stdout,
            "secret-a\n")
    }

    func testWithoutForegroundTheAgentDetachesOnceItServes() throws {
        try makeKeychain()
        let started = try run(Self.keychaind, [])
        XCTAssertStatus(started, 0)
        let pid = try XCTUnwrap(
            (try keychain("status", "--json").json()["agent"] as? [String: Any])?["pid"] as? Int, started.stdout)
        defer { kill(pid_t(pid), SIGKILL) }
        XCTAssertTrue(started.stdout.contains("serving (pid \(pid))"), started.stdout)
        XCTAssertStatus(try keychain("unlock", input: "pass\n"), 0)
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w", refusingKeyrings: true).stdout,
            "secret-a\n")
        // A detached start that fails reports the child's status and message.
        let second = try run(Self.keychaind, [])
        XCTAssertStatus(second, 45)
        XCTAssertTrue(second.stderr.contains("already running for this keychain (pid \(pid))"), second.stderr)
        XCTAssertEqual(kill(pid_t(pid), SIGTERM), 0)
    }

    func testAKilledAgentLeavesClientsWorkingWithoutIt() throws {
        try makeKeychain()
        let agent = try startAgent()
        XCTAssertStatus(try keychain("unlock", "--timeout", "0", input: "pass\n"), 0)
        kill(agent.pid, SIGKILL)
        agent.process.waitUntilExit()

        let started = Date()
        let found = try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w", refusingKeyrings: true)
        XCTAssertStatus(found, 51)  // no ticket anywhere: locked, as without an agent
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "no hang")
        XCTAssertNil(try keychain("status", "--json").json()["agent"], "no agent reported")
        // And without an agent everything works as before it.
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w", "--unlock", input: "pass\n").stdout,
            "secret-a\n")
    }

    func testAStoppedAgentCostsABoundedWaitNotAHang() throws {
        try makeKeychain()
        let agent = try startAgent()
        XCTAssertStatus(try keychain("unlock", "--timeout", "0", input: "pass\n"), 0)
        kill(agent.pid, SIGSTOP)
        defer { kill(agent.pid, SIGCONT) }
        let started = Date()
        let found = try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w")
        XCTAssertStatus(found, 51)
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "each agent request gives up after 2 s")
    }
}
