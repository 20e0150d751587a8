#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import AttackTestSupport
import Foundation
import KeychainCore
import SecureStorageFoundation
import XCTest

/// Issue 37, item 3: a locked keychain is unlocked through the terminal prompter
/// (`keychain unlock --serve-prompts` on a pseudo-terminal the test types into) when a program
/// asks the agent (`requestUnlock` over its socket, the path the Secret Service's prompts take in
/// process); without a prompter the request is refused at once.
final class AgentPromptTests: AgentTestCase {
    /// The agent serving the test's keychain, and the client a requesting program uses.
    private func agentAndClient() throws -> (RunningAgent, KeychainAgentClient) {
        try makeKeychain()
        XCTAssertStatus(try keychain("lock"), 0)
        let agent = try startAgent()
        let path = try XCTUnwrap(try keychain("status", "--json").json()["path"] as? String)
        let client = try XCTUnwrap(
            try KeychainAgentClient.locate(vaultID: XCTUnwrap(UUID(uuidString: vaultID())), databasePath: path))
        return (agent, client)
    }

    /// `keychain unlock --serve-prompts --timeout 0` on a terminal, once it serves.
    private func startPrompter() throws -> PrompterTerminal {
        let prompter = try PrompterTerminal(
            try process(Self.keychain, ["unlock", "--serve-prompts", "--timeout", "0"]))
        XCTAssertTrue(prompter.waitFor("answering unlock requests"), prompter.log)
        return prompter
    }

    private func lockState() throws -> String? {
        try keychain("status", "--json").json()["lockState"] as? String
    }

    /// The keychain stays locked: its whenUnlocked item cannot be read (status 51).
    private func assertStillLocked(file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertNotEqual(try lockState(), "unlocked", file: file, line: line)
        XCTAssertStatus(try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w"), 51, file: file, line: line)
    }

    func testTheTypedPassphraseUnlocksAndTheRequestSucceeds() throws {
        let (_, client) = try agentAndClient()
        let prompter = try startPrompter()
        let request = UnlockRequest(client, reason: "python3 (pid 4242)")
        XCTAssertTrue(prompter.waitFor("python3 (pid 4242) asks to unlock the keychain."), prompter.log)
        XCTAssertTrue(prompter.waitFor("Passphrase"), prompter.log)
        prompter.type("pass\n")
        XCTAssertEqual(try request.answer(), true)
        XCTAssertTrue(prompter.waitFor("unlocked"), prompter.log)
        XCTAssertTrue(prompter.waitFor("waiting for the next request"), prompter.log)
        XCTAssertEqual(try lockState(), "unlocked")
        XCTAssertEqual(try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w").stdout, "secret-a\n")
        XCTAssertFalse(prompter.displayed().contains("pass"), "the passphrase was not echoed")
        XCTAssertFalse(prompter.log.contains("pass\n"))
        // Unlocked now: a new request is answered at once, and the prompter is not asked.
        XCTAssertEqual(try UnlockRequest(client, reason: "again").answer(within: 5), true)
        XCTAssertFalse(prompter.log.contains("again asks"), prompter.log)
    }

    func testDecliningWithAnEmptyLineOrCtrlDAnswersFalse() throws {
        let (_, client) = try agentAndClient()
        let prompter = try startPrompter()
        let first = UnlockRequest(client, reason: "first")
        XCTAssertTrue(prompter.waitFor("first asks to unlock the keychain."), prompter.log)
        XCTAssertTrue(prompter.waitFor("Passphrase"), prompter.log)
        prompter.type("\n")
        XCTAssertEqual(try first.answer(), false)
        XCTAssertTrue(prompter.waitFor("declined; the keychain stays locked"), prompter.log)

        let second = UnlockRequest(client, reason: "second")
        XCTAssertTrue(prompter.waitFor("second asks to unlock the keychain."), prompter.log)
        XCTAssertTrue(prompter.waitFor("Passphrase"), prompter.log)
        prompter.type("\u{04}")  // Ctrl-D
        XCTAssertEqual(try second.answer(), false)
        XCTAssertTrue(prompter.waitFor("declined"), prompter.log)
        try assertStillLocked()
        XCTAssertTrue(prompter.process.isRunning, "it waits for the next request")
    }

    func testThreeWrongPassphrasesDeclineAndTheKeychainStaysLocked() throws {
        let (_, client) = try agentAndClient()
        let prompter = try startPrompter()
        let request = UnlockRequest(client, reason: "guesser")
        XCTAssertTrue(prompter.waitFor("guesser asks"), prompter.log)
        for attempt in 1...3 {
            XCTAssertTrue(prompter.waitFor("Passphrase"), "attempt \(attempt): \(prompter.log)")
            prompter.type("wrong-\(attempt)\n")
            if attempt < 3 { XCTAssertTrue(prompter.waitFor("(attempt \(attempt + 1) of 3)"), prompter.log) }
        }
        XCTAssertEqual(try request.answer(), false)
        XCTAssertTrue(prompter.waitFor("3 wrong passphrases: declined"), prompter.log)
        try assertStillLocked()
        XCTAssertFalse(prompter.log.contains("wrong-"), "no passphrase printed: \(prompter.log)")
    }

    func testAnUnlockElsewhereSatisfiesTheWaitingRequests() throws {
        let (_, client) = try agentAndClient()
        let prompter = try startPrompter()
        let first = UnlockRequest(client, reason: "first")
        XCTAssertTrue(prompter.waitFor("first asks"), prompter.log)
        let second = UnlockRequest(client, reason: "second")  // joins the open prompt
        usleep(300_000)
        XCTAssertStatus(try keychain("unlock", "--timeout", "0", input: "pass\n"), 0)
        XCTAssertEqual(try first.answer(), true)
        XCTAssertEqual(try second.answer(), true)
        XCTAssertTrue(prompter.waitFor("unlocked elsewhere; the request is satisfied"), prompter.log)
        XCTAssertFalse(prompter.log.contains("second asks"), "one prompt for both: \(prompter.log)")
        XCTAssertTrue(prompter.waitFor("waiting for the next request"), prompter.log)
    }

    func testAWithdrawnOrTimedOutRequestIsTakenBackFromThePrompter() throws {
        let (_, client) = try agentAndClient()
        let prompter = try startPrompter()
        guard let python = SocketPeer.python else { throw XCTSkip("python3 is needed to send a raw request") }
        // A program asks (requestUnlock, 60 s, reason "leaver") and goes away before the answer.
        let reason = Array("leaver".utf8)
        let body: [UInt8] = [1, 9, 0, 0, 0xEA, 0x60] + [0, 0, 0, UInt8(reason.count)] + reason
        let frame = [0, 0, 0, UInt8(body.count)] + body
        let script = """
            import socket, sys, time
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect("\\0" + sys.argv[1])
            s.sendall(bytes([\(frame.map(String.init).joined(separator: ","))]))
            time.sleep(float(sys.argv[2])); s.close()
            """
        let leaver = try process(URL(fileURLWithPath: python), ["-c", script, try agentName(), "1.5"])
        try leaver.run()
        XCTAssertTrue(prompter.waitFor("leaver asks to unlock the keychain."), prompter.log)
        leaver.waitUntilExit()
        XCTAssertTrue(prompter.waitFor("the request was withdrawn"), prompter.log)
        XCTAssertTrue(prompter.waitFor("waiting for the next request"), prompter.log)

        // A request whose own timeout passes answers false and is withdrawn the same way.
        let hurried = UnlockRequest(client, reason: "hurried", timeout: .seconds(1))
        XCTAssertTrue(prompter.waitFor("hurried asks"), prompter.log)
        XCTAssertEqual(try hurried.answer(), false)
        XCTAssertTrue(prompter.waitFor("the request was withdrawn"), prompter.log)
        // And the prompter still serves.
        let next = UnlockRequest(client, reason: "next")
        XCTAssertTrue(prompter.waitFor("next asks"), prompter.log)
        XCTAssertTrue(prompter.waitFor("Passphrase"), prompter.log)
        prompter.type("pass\n")
        XCTAssertEqual(try next.answer(), true)
    }

    func testWithoutAPrompterARequestIsRefusedWithinTwoSeconds() throws {
        let (_, client) = try agentAndClient()
        let refused = UnlockRequest(client, reason: "nobody to ask", timeout: .seconds(60))
        XCTAssertEqual(try refused.answer(within: 10), false)
        let elapsed = try XCTUnwrap(refused.elapsed)
        XCTAssertLessThan(elapsed, .seconds(2), "answered in \(elapsed)")

        // A prompter that goes away mid-prompt: the waiting request completes false at once.
        let prompter = try startPrompter()
        let orphan = UnlockRequest(client, reason: "orphan", timeout: .seconds(60))
        XCTAssertTrue(prompter.waitFor("orphan asks"), prompter.log)
        kill(prompter.process.processIdentifier, SIGINT)  // Ctrl-C
        prompter.process.waitUntilExit()
        XCTAssertEqual(try orphan.answer(within: 5), false)
        try assertStillLocked()
        let after = UnlockRequest(client, reason: "after", timeout: .seconds(60))
        XCTAssertEqual(try after.answer(within: 5), false, "no prompter any more")
    }

    func testAHostileReasonIsPrintedEscaped() throws {
        let (_, client) = try agentAndClient()
        let prompter = try startPrompter()
        let hostile = "evil\u{1B}[2J\u{1B}]0;owned\u{07}\nkeychain: unlocked\u{202E}"
        let request = UnlockRequest(client, reason: hostile + String(repeating: "x", count: 400))
        XCTAssertTrue(prompter.waitFor("evil?[2J?]0;owned??keychain: unlocked?xxx"), prompter.log)
        XCTAssertTrue(prompter.waitFor("Passphrase"), prompter.log)
        XCTAssertFalse(prompter.log.contains("\u{1B}"), "no escape reached the terminal")
        XCTAssertFalse(prompter.log.contains("\u{07}"))
        XCTAssertFalse(prompter.log.contains("\u{202E}"))
        let shown = try XCTUnwrap(prompter.log.split(separator: "\n").first { $0.hasPrefix("evil") })
        XCTAssertLessThanOrEqual(shown.utf8.count, 256 + " asks to unlock the keychain.".utf8.count, "cut to 256 bytes")
        prompter.type("\n")
        XCTAssertEqual(try request.answer(), false)
    }

    func testOnePrompterAtATimeAndTheSecondIsToldWhichServes() throws {
        _ = try agentAndClient()
        let first = try startPrompter()
        let second = try PrompterTerminal(try process(Self.keychain, ["unlock", "--serve-prompts"]))
        second.process.waitUntilExit()
        XCTAssertEqual(second.process.terminationStatus, 45, second.log)
        XCTAssertTrue(
            second.log.contains("Another prompter (pid \(first.process.processIdentifier)) already answers"),
            second.log)
        XCTAssertTrue(first.process.isRunning, "the first keeps serving")
    }

    func testServingPromptsNeedsATerminalAndAnAgent() throws {
        try makeKeychain()
        let piped = try keychain("unlock", "--serve-prompts")
        XCTAssertStatus(piped, 64)
        XCTAssertTrue(piped.stderr.contains("needs a terminal"), piped.stderr)
        let noAgent = try PrompterTerminal(try process(Self.keychain, ["unlock", "--serve-prompts"]))
        noAgent.process.waitUntilExit()
        XCTAssertEqual(noAgent.process.terminationStatus, 53, noAgent.log)
        XCTAssertTrue(noAgent.log.contains("No keychain agent serves"), noAgent.log)
        XCTAssertTrue(noAgent.log.contains("Start keychaind"), noAgent.log)
        let both = try keychain("unlock", "--serve-prompts", "--passphrase-file", "/dev/null")
        XCTAssertStatus(both, 64)
    }

    /// Another uid cannot become the prompter (and so cannot collect passphrases): its
    /// `servePrompts` gets nothing, and requests still find no prompter.
    func testAPrompterOfAnotherUserIsRefused() throws {
        let (agent, client) = try agentAndClient()
        let peer = try SocketPeer.make(in: scratch)
        let script = SocketPeer.client.replacingOccurrences(of: "[0, 0, 0, 2, 1, 4]", with: "[0, 0, 0, 2, 1, 6]")
        XCTAssertNotEqual(script, SocketPeer.client)
        let intruder = try peer.start(script, name: try agentName())
        intruder.waitUntilExit()
        XCTAssertTrue(peer.log.contains("got 0\n"), "closed without a byte: \(peer.log)")
        XCTAssertTrue(agent.waitFor("refused a connection from another user", timeout: 5), agent.log)
        XCTAssertFalse(agent.log.contains("a prompter serves"), agent.log)
        XCTAssertEqual(try UnlockRequest(client, reason: "anyone?").answer(within: 5), false)
    }
}
