#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import AttackTestSupport
import Foundation
import XCTest

/// keychaind's process is hardened before it reads a passphrase: no core file (RLIMIT_CORE 0,
/// soft and hard), anonymous memory out of any dump (coredump_filter 0), and not dumpable, which
/// the kernel shows by giving its /proc files to root even when the agent runs as another user,
/// who then cannot read its own agent's environment or memory.
final class AgentHardeningTests: AgentTestCase {
    func testTheAgentCannotDumpCore() throws {
        try makeKeychain()
        let agent = try startAgent()
        let limits = try String(contentsOfFile: "/proc/\(agent.pid)/limits", encoding: .utf8)
        let core = try XCTUnwrap(limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") })
        XCTAssertEqual(core.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).prefix(2), ["0", "0"])
        let filter = try String(contentsOfFile: "/proc/\(agent.pid)/coredump_filter", encoding: .utf8)
        XCTAssertEqual(filter.trimmingCharacters(in: .whitespacesAndNewlines), "00000000")
    }

    func testAnAgentOfAnotherUserIsNotDumpableEvenToThatUser() throws {
        let user = try AnotherUser.required()
        guard user.setpriv != nil else { throw XCTSkip("setpriv (util-linux) is needed") }
        try user.handOver(scratch, mode: 0o755)
        // uid 65534's own keychain (no passphrase: always unlocked).
        let created = try run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", Self.keychain.path, "create"])
        XCTAssertStatus(created, 0)
        let agent = try startAgent(asUser: 65534)
        let pid = agent.pid  // setpriv execs keychaind: the same process
        var info = stat()
        XCTAssertEqual(stat("/proc/\(pid)/status", &info), 0)
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        XCTAssertTrue(status.contains("Uid:\t65534"), "the agent runs as 65534: \(status.prefix(400))")
        XCTAssertEqual(info.st_uid, 0, "a non-dumpable process's /proc files belong to root")
        XCTAssertNotEqual(try user.run("cat /proc/$1/environ > /dev/null", "\(pid)"), 0, "its own user cannot read it")
        XCTAssertEqual(try user.run("cat /proc/self/status > /dev/null"), 0, "control: an ordinary process can")
    }
}
