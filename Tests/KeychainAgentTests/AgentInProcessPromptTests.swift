#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import KeychainCore
import SecureStorageFoundation
import XCTest

/// The in-process API the Secret Service calls (``KeychainAgent/requestUnlock(reason:timeout:)``,
/// ``KeychainAgent/hasPrompter``), on an agent hosted in the test process, with the real
/// `keychain unlock --serve-prompts` on a pseudo-terminal as its prompter: no prompter answers
/// `false` within 2 s; cancelling the calling task (Prompt.Dismiss, a D-Bus client leaving)
/// withdraws the request from the prompter; a typed passphrase answers `true`.
final class AgentInProcessPromptTests: AgentTestCase {
    func testRequestUnlockAnswersCancelsAndUnlocks() throws {
        try makeKeychain()
        XCTAssertStatus(try keychain("lock"), 0)
        var options = KeychainOptions()
        options.resumesUnlockSession = false
        let agent = KeychainAgent(keychain: try Keychain(location: KeychainLocation(directory: home), options: options))
        let server = try KeychainAgentServer.start(serving: agent)
        defer {
            server.stop()
            agent.shutDown()
        }
        XCTAssertFalse(agent.hasPrompter)
        let started = ContinuousClock.now
        XCTAssertEqual(AsyncRequest(agent, reason: "nobody (pid 1)").result(), false)
        XCTAssertLessThan(started.duration(to: .now), .seconds(2), "no prompter: answered at once")

        let prompter = try PrompterTerminal(try process(Self.keychain, ["unlock", "--serve-prompts", "--timeout", "0"]))
        XCTAssertTrue(prompter.waitFor("answering unlock requests"), prompter.log)
        XCTAssertTrue(agent.hasPrompter)

        let dismissed = AsyncRequest(agent, reason: "dbus client (pid 7)")
        XCTAssertTrue(prompter.waitFor("dbus client (pid 7) asks to unlock the keychain."), prompter.log)
        dismissed.task.cancel()
        XCTAssertEqual(dismissed.result(), false)
        XCTAssertTrue(prompter.waitFor("the request was withdrawn"), prompter.log)
        XCTAssertFalse(agent.isUnlocked)

        let granted = AsyncRequest(agent, reason: "dbus client (pid 8)")
        XCTAssertTrue(prompter.waitFor("dbus client (pid 8) asks"), prompter.log)
        XCTAssertTrue(prompter.waitFor("Passphrase"), prompter.log)
        prompter.type("pass\n")
        XCTAssertEqual(granted.result(), true)
        XCTAssertTrue(agent.isUnlocked)
        XCTAssertEqual(AsyncRequest(agent, reason: "again").result(within: 2), true, "already unlocked")

        kill(prompter.process.processIdentifier, SIGINT)
        prompter.process.waitUntilExit()
        let deadline = Date().addingTimeInterval(5)
        while agent.hasPrompter, Date() < deadline { usleep(20_000) }
        XCTAssertFalse(agent.hasPrompter, "the prompter's place is free once it exits")
    }
}

/// ``KeychainAgent/requestUnlock(reason:timeout:)`` called from a task of its own, as the Secret
/// Service calls it; the test waits for its answer from a plain thread.
final class AsyncRequest: Sendable {
    let task: Task<Void, Never>
    private let answer: Locked<Bool?>

    init(_ agent: KeychainAgent, reason: String, timeout: Duration = .seconds(60)) {
        let answer = Locked<Bool?>(nil)
        self.answer = answer
        task = Task.detached {
            let result = await agent.requestUnlock(reason: reason, timeout: timeout)
            answer.withLock { $0 = result }
        }
    }

    /// The answer, waiting up to `seconds`; `nil` when none came.
    func result(within seconds: TimeInterval = 30) -> Bool? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let result = answer.withLock({ $0 }) { return result }
            usleep(20_000)
        }
        return nil
    }
}
