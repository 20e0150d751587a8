#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import AttackTestSupport
import Foundation
import XCTest

/// Issue 37, item 1, attacked: another uid (65534) connecting to the agent, squatting its name
/// before it starts, posing as the agent for the tool; malformed and oversized frames.
final class AgentAttackTests: AgentTestCase {
    func testAnotherUserIsRefusedAndGetsNothing() throws {
        try makeKeychain()
        let agent = try startAgent()
        XCTAssertStatus(try keychain("unlock", "--timeout", "0", input: "pass\n"), 0)
        let peer = try SocketPeer.make(in: scratch)
        let client = try peer.start(SocketPeer.client, name: try agentName())
        client.waitUntilExit()
        XCTAssertTrue(peer.log.contains("got 0\n"), "closed without a byte: \(peer.log)")
        XCTAssertTrue(agent.waitFor("refused a connection from another user", timeout: 5), agent.log)
        XCTAssertTrue(agent.log.contains("uid 65534"), agent.log)
        // The agent goes on serving its user.
        XCTAssertEqual(try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w").stdout, "secret-a\n")
    }

    func testASquatterOfTheNameStopsTheAgentFromStarting() throws {
        try makeKeychain()
        let peer = try SocketPeer.make(in: scratch)
        let squatter = try peer.start(SocketPeer.listener, name: try agentName())
        defer { squatter.terminate() }
        XCTAssertTrue(peer.waitFor("listening"), peer.log)

        let refused = try run(Self.keychaind, ["--foreground"])
        XCTAssertStatus(refused, 53)
        XCTAssertTrue(refused.stderr.contains("another user (uid 65534, pid "), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("does not start"), refused.stderr)
    }

    func testTheToolSendsAFakeAgentNothingAndSaysSo() throws {
        try makeKeychain()
        let peer = try SocketPeer.make(in: scratch)
        let fake = try peer.start(SocketPeer.listener, name: try agentName())
        defer { fake.terminate() }
        XCTAssertTrue(peer.waitFor("listening"), peer.log)

        let unlocked = try keychain("unlock", "--timeout", "60", input: "pass\n")
        XCTAssertStatus(unlocked, 0)  // without an agent: the kernel keyring keeps the session
        XCTAssertTrue(unlocked.stderr.contains("runs as uid 65534"), unlocked.stderr)
        XCTAssertTrue(unlocked.stderr.contains("nothing was sent to it"), unlocked.stderr)
        XCTAssertFalse(unlocked.stderr.contains("by keychaind"), unlocked.stderr)
        let status = try keychain("status", "--json").json()
        XCTAssertNotNil((status["agent"] as? [String: Any])?["refused"], "\(status)")
        XCTAssertStatus(try keychain("lock"), 0)

        XCTAssertTrue(peer.waitFor("received"), peer.log)
        usleep(300_000)
        let connections = peer.log.split(separator: "\n").filter { $0.hasPrefix("received") }
        XCTAssertFalse(connections.isEmpty)
        XCTAssertEqual(Set(connections), ["received 0"], "the fake agent got no byte: \(peer.log)")
    }

    /// Root is not special: a user's client refuses an "agent" owned by root on its name too.
    func testAUsersToolSendsARootOwnedAgentNothing() throws {
        let peer = try SocketPeer.make(in: scratch)
        let user = try AnotherUser.required()
        try user.handOver(scratch, mode: 0o755)
        let userHome = scratch.appendingPathComponent("nobody-home").path
        func asNobody(_ arguments: [String], input: String = "") throws -> RunResult {
            try run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=65534", "--regid=65534", "--clear-groups", Self.keychain.path] + arguments, input: input,
                changing: ["SECURE_STORAGE_HOME": userHome, "HOME": scratch.path])
        }
        XCTAssertStatus(try asNobody(["create", "--passphrase"], input: "pass\n"), 0)
        let vault = try XCTUnwrap(try asNobody(["status", "--json"]).json()["vaultID"] as? String)
        let fake = try peer.start(
            SocketPeer.listener, name: "secure-storage/agent/65534/\(vault.lowercased())", asRoot: true)
        defer { fake.terminate() }
        XCTAssertTrue(peer.waitFor("listening"), peer.log)

        let unlocked = try asNobody(["unlock", "--timeout", "60"], input: "pass\n")
        XCTAssertStatus(unlocked, 0)  // through the user's kernel keyring, as without an agent
        XCTAssertTrue(unlocked.stderr.contains("runs as uid 0, pid \(fake.processIdentifier)"), unlocked.stderr)
        XCTAssertTrue(unlocked.stderr.contains("nothing was sent to it"), unlocked.stderr)
        XCTAssertStatus(try asNobody(["lock"]), 0)
        XCTAssertTrue(peer.waitFor("received"), peer.log)
        usleep(300_000)
        let connections = peer.log.split(separator: "\n").filter { $0.hasPrefix("received") }
        XCTAssertEqual(Set(connections), ["received 0"], "the root-owned fake got no byte: \(peer.log)")
    }

    func testMalformedAndOversizedFramesAreRefusedAndTheAgentKeepsServing() throws {
        try makeKeychain()
        let agent = try startAgent()
        guard let python = SocketPeer.python else { throw XCTSkip("python3 is needed to send raw frames") }
        let name = try agentName()
        // Each case: bytes sent, then the reply's kind byte printed (5: failure) and its text.
        let script = """
            import socket, sys
            def ask(frame):
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.settimeout(5)
                s.connect("\\0" + sys.argv[1]); s.sendall(frame)
                data = b""
                while True:
                    d = s.recv(65536)
                    if not d: break
                    data += d
                print(data[5] if len(data) > 5 else "none", data[6:].decode("utf-8", "replace").replace("\\n", " "))
            ask(b"\\xff\\xff\\xff\\xff")
            ask(b"\\x00\\x00\\x00\\x02\\x09\\x01")
            ask(b"\\x00\\x00\\x00\\x02\\x01\\x63")
            ask(b"\\x00\\x00\\x00\\x03\\x01\\x02\\x00")
            ask(b"\\x00\\x00\\x00\\x03\\x01\\x01\\x00")
            """
        let result = try run(URL(fileURLWithPath: python), ["-c", script, name])
        XCTAssertStatus(result, 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, result.stdout)
        for line in lines { XCTAssertTrue(line.hasPrefix("5 "), "a failure reply: \(line)") }
        XCTAssertTrue(lines[0].contains("4294967295 bytes was refused"), lines[0])
        XCTAssertTrue(lines[1].contains("protocol version 9"), lines[1])
        XCTAssertTrue(lines[2].contains("request kind"), lines[2])
        XCTAssertTrue(lines[3].contains("unlock request"), lines[3])
        XCTAssertTrue(lines[4].contains("trailing bytes"), lines[4])
        XCTAssertTrue(agent.process.isRunning)
        XCTAssertStatus(try keychain("unlock", input: "pass\n"), 0)
        XCTAssertEqual(try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w").stdout, "secret-a\n")
    }
}
