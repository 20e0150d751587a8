@testable import KeychainSync
import XCTest

/// Every transition of background sync's schedule, with time given by the test: no server, no
/// clock, no sleep.
final class BackgroundSyncStateMachineTests: XCTestCase {
    private let poll: Duration = .seconds(60)
    private let verification: Duration = .seconds(3600)

    private func machine() -> BackgroundSyncStateMachine {
        BackgroundSyncStateMachine(pollInterval: poll, verificationInterval: verification)
    }

    /// A machine that ran its first round and compaction at 0 s: idle, next poll at 60 s.
    private func settled() -> BackgroundSyncStateMachine {
        var machine = machine()
        _ = machine.handle(.tick, at: .zero)
        _ = machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: .zero)
        _ = machine.handle(.compactionFinished, at: .zero)
        return machine
    }

    func testTheFirstRoundStartsAtOnceAndChecksEveryRecord() {
        var machine = machine()
        XCTAssertEqual(machine.state, .idle)
        XCTAssertEqual(machine.handle(.tick, at: .zero), .sync(verifyingEverything: true))
        XCTAssertEqual(machine.state, .syncing(verifyingEverything: true))
    }

    func testTheFirstSuccessfulRoundIsFollowedByACompactionThenAWaitForThePoll() {
        var machine = machine()
        _ = machine.handle(.tick, at: .zero)
        XCTAssertEqual(machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: .seconds(2)), .compact)
        XCTAssertEqual(machine.state, .compacting)
        XCTAssertEqual(
            machine.handle(.compactionFinished, at: .seconds(3)), .wait(until: .seconds(62)),
            "the poll counts from the round's end")
        XCTAssertEqual(machine.state, .idle)
    }

    func testNoCompactionWhileChangesWaitForALockedClass() {
        var machine = machine()
        _ = machine.handle(.tick, at: .zero)
        XCTAssertEqual(machine.handle(.roundSucceeded(deferredWhileLocked: 2), at: .zero), .wait(until: poll))
        XCTAssertEqual(machine.handle(.tick, at: poll), .sync(verifyingEverything: false))
        XCTAssertEqual(
            machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: poll), .compact, "compacted once nothing waits")
    }

    func testCompactionComesOnceADay() {
        var machine = settled()
        for minute in 1...3 {
            let now = Duration.seconds(60 * minute)
            XCTAssertEqual(machine.handle(.tick, at: now), .sync(verifyingEverything: false))
            XCTAssertNotEqual(machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: now), .compact)
        }
        let nextDay = BackgroundSyncStateMachine.compactionInterval
        XCTAssertEqual(machine.handle(.changeNoticed, at: nextDay), .sync(verifyingEverything: true))
        XCTAssertEqual(machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: nextDay), .compact)
    }

    func testAFailedCompactionDoesNotStopTheRounds() {
        var machine = machine()
        _ = machine.handle(.tick, at: .zero)
        _ = machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: .zero)
        XCTAssertEqual(machine.handle(.compactionFinished, at: .seconds(1)), .wait(until: poll))
        XCTAssertEqual(machine.handle(.changeNoticed, at: .seconds(2)), .sync(verifyingEverything: false))
    }

    func testAChangeStartsARoundAtOnce() {
        var machine = settled()
        XCTAssertEqual(machine.handle(.tick, at: .seconds(5)), .wait(until: poll), "nothing due yet")
        XCTAssertEqual(machine.handle(.changeNoticed, at: .seconds(6)), .sync(verifyingEverything: false))
    }

    func testThePollIntervalStartsARoundWhenNothingChanged() {
        var machine = settled()
        XCTAssertEqual(machine.handle(.tick, at: poll - .milliseconds(1)), .wait(until: poll))
        XCTAssertEqual(machine.handle(.tick, at: poll), .sync(verifyingEverything: false))
    }

    func testAChangeDuringARoundMakesTheNextOneDue() {
        var machine = settled()
        XCTAssertEqual(machine.handle(.changeNoticed, at: .seconds(1)), .sync(verifyingEverything: false))
        XCTAssertEqual(machine.handle(.changeNoticed, at: .seconds(2)), .awaitOutcome, "one round at a time")
        XCTAssertEqual(machine.handle(.tick, at: .seconds(2)), .awaitOutcome)
        XCTAssertEqual(
            machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: .seconds(3)), .sync(verifyingEverything: false),
            "the change made during the round is not lost")
        XCTAssertEqual(
            machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: .seconds(4)), .wait(until: .seconds(64)))
    }

    func testEveryRecordIsCheckedAgainAfterTheVerificationInterval() {
        var machine = settled()
        XCTAssertEqual(
            machine.handle(.changeNoticed, at: verification - .seconds(1)), .sync(verifyingEverything: false))
        _ = machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: verification - .seconds(1))
        XCTAssertEqual(machine.handle(.changeNoticed, at: verification), .sync(verifyingEverything: true))
        _ = machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: verification + .seconds(10))
        XCTAssertEqual(
            machine.handle(.changeNoticed, at: verification + .seconds(11)), .sync(verifyingEverything: false),
            "the next check counts from the verifying round's end")
        _ = machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: verification + .seconds(11))
        XCTAssertEqual(
            machine.handle(.changeNoticed, at: verification * 2 + .seconds(10)), .sync(verifyingEverything: true))
    }

    func testAFailedVerifyingRoundIsRetriedAsAVerifyingRound() {
        var machine = machine()
        _ = machine.handle(.tick, at: .zero)
        _ = machine.handle(.roundFailed(.serverUnreachable), at: .zero)
        XCTAssertEqual(machine.handle(.tick, at: .seconds(1)), .sync(verifyingEverything: true))
    }

    func testAnUnreachableServerIsRetriedWithExponentialBackoffUpToFiveMinutes() {
        var machine = settled()
        var now = Duration.seconds(10)
        XCTAssertEqual(machine.handle(.changeNoticed, at: now), .sync(verifyingEverything: false))
        var waits: [Duration] = []
        for _ in 0..<11 {
            guard case .wait(let until) = machine.handle(.roundFailed(.serverUnreachable), at: now) else {
                return XCTFail("no wait after a failure")
            }
            XCTAssertEqual(machine.state, .backingOff(until: until))
            XCTAssertFalse(machine.mayContactServer(at: now), "no listening while backing off")
            waits.append(until - now)
            XCTAssertEqual(
                machine.handle(.changeNoticed, at: until - .milliseconds(1)), .wait(until: until),
                "a change does not cut the backoff short")
            now = until
            XCTAssertEqual(
                machine.handle(.tick, at: now), .sync(verifyingEverything: false),
                "retried when the backoff ends, not at the next poll")
            XCTAssertTrue(machine.mayContactServer(at: now))
        }
        XCTAssertEqual(waits, [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300].map { Duration.seconds($0) })
    }

    func testARefusingServerBacksOffLikeAnUnreachableOne() {
        var machine = settled()
        _ = machine.handle(.changeNoticed, at: .seconds(10))
        XCTAssertEqual(machine.handle(.roundFailed(.serverRejected), at: .seconds(10)), .wait(until: .seconds(11)))
    }

    func testASuccessfulRoundResetsTheBackoff() {
        var machine = settled()
        var now = Duration.seconds(10)
        _ = machine.handle(.changeNoticed, at: now)
        for _ in 0..<4 {
            guard case .wait(let until) = machine.handle(.roundFailed(.serverUnreachable), at: now) else {
                return XCTFail()
            }
            now = until
            _ = machine.handle(.tick, at: now)
        }
        _ = machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: now)
        XCTAssertEqual(machine.handle(.changeNoticed, at: now + .seconds(1)), .sync(verifyingEverything: false))
        XCTAssertEqual(
            machine.handle(.roundFailed(.serverUnreachable), at: now + .seconds(1)), .wait(until: now + .seconds(2)))
    }

    func testFindingsThatRetryingDoesNotHealPauseFiveMinutes() {
        for code in [SyncError.Code.tampered, .removed, .notAMember] {
            var machine = settled()
            _ = machine.handle(.changeNoticed, at: .seconds(10))
            let resume = Duration.seconds(310)
            XCTAssertEqual(machine.handle(.roundFailed(code), at: .seconds(10)), .wait(until: resume), "\(code)")
            XCTAssertEqual(machine.handle(.changeNoticed, at: .seconds(100)), .wait(until: resume), "\(code)")
            XCTAssertEqual(
                machine.handle(.tick, at: resume), .sync(verifyingEverything: false),
                "\(code): due by the change and the poll")
        }
    }

    func testAfterAFindingPauseOnlyADueRoundRuns() {
        var machine = BackgroundSyncStateMachine(pollInterval: .seconds(3600), verificationInterval: verification)
        _ = machine.handle(.tick, at: .zero)
        XCTAssertEqual(machine.handle(.roundFailed(.tampered), at: .zero), .wait(until: .seconds(300)))
        XCTAssertEqual(
            machine.handle(.tick, at: .seconds(300)), .wait(until: .seconds(3600)), "nothing changed: the next poll")
    }

    func testOtherFailuresWaitForTheNextChangeOrPoll() {
        for code in [
            SyncError.Code.invalidState, .keychain, .invalidCode, SyncError.Code(rawValue: "aCodeOfALaterVersion")
        ] {
            var machine = settled()
            _ = machine.handle(.changeNoticed, at: .seconds(10))
            XCTAssertEqual(machine.handle(.roundFailed(code), at: .seconds(10)), .wait(until: .seconds(70)), "\(code)")
            XCTAssertEqual(machine.state, .idle)
            XCTAssertTrue(machine.mayContactServer(at: .seconds(10)))
            XCTAssertEqual(
                machine.handle(.changeNoticed, at: .seconds(11)), .sync(verifyingEverything: false), "\(code)")
        }
    }

    func testStoppingEndsEveryStateForGood() {
        var idle = settled()
        XCTAssertEqual(idle.handle(.stopRequested, at: .seconds(1)), .finish)
        var syncing = settled()
        _ = syncing.handle(.changeNoticed, at: .seconds(1))
        XCTAssertEqual(syncing.handle(.stopRequested, at: .seconds(2)), .finish)
        var backingOff = settled()
        _ = backingOff.handle(.changeNoticed, at: .seconds(1))
        _ = backingOff.handle(.roundFailed(.serverUnreachable), at: .seconds(1))
        XCTAssertEqual(backingOff.handle(.stopRequested, at: .seconds(1)), .finish)
        for var machine in [idle, syncing, backingOff] {
            XCTAssertEqual(machine.state, .stopped)
            XCTAssertEqual(machine.handle(.changeNoticed, at: .seconds(5)), .finish)
            XCTAssertEqual(machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: .seconds(5)), .finish)
            XCTAssertEqual(machine.handle(.tick, at: .seconds(500)), .finish)
        }
    }

    func testAnOutcomeWithoutARoundChangesNothing() {
        var machine = settled()
        let before = machine
        XCTAssertEqual(machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: .seconds(1)), .wait(until: poll))
        XCTAssertEqual(machine.handle(.roundFailed(.serverUnreachable), at: .seconds(1)), .wait(until: poll))
        XCTAssertEqual(machine.handle(.compactionFinished, at: .seconds(1)), .wait(until: poll))
        XCTAssertEqual(machine, before)
    }

    // MARK: - Coalescing changes

    func testChangesDuringTheGapAfterARoundStartMakeOneRoundDueAtItsEnd() {
        var machine = settled()  // its round started at 0 s
        XCTAssertEqual(machine.handle(.changeNoticed, at: .milliseconds(300)), .wait(until: .seconds(1)))
        XCTAssertEqual(machine.handle(.changeNoticed, at: .milliseconds(600)), .wait(until: .seconds(1)))
        XCTAssertEqual(machine.handle(.tick, at: .milliseconds(999)), .wait(until: .seconds(1)))
        XCTAssertEqual(
            machine.handle(.tick, at: .seconds(1)), .sync(verifyingEverything: false),
            "the changes made during the gap are not lost: one round at its end")
        XCTAssertEqual(
            machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: .milliseconds(1100)),
            .wait(until: .milliseconds(61_100)), "nothing more is due")
    }

    func testAStormOfChangesCostsAtMostARoundASecond() {
        var machine = settled()
        var rounds = 0
        var now = Duration.seconds(10)
        let end = Duration.seconds(20)
        while now < end {
            if case .sync = machine.handle(.changeNoticed, at: now) {
                rounds += 1
                _ = machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: now + .milliseconds(5))
            }
            now += .milliseconds(10)
        }
        XCTAssertEqual(rounds, 10, "one round a second for ten seconds of changes every 10 ms")
        XCTAssertEqual(
            machine.handle(.changeNoticed, at: end + .seconds(5)), .sync(verifyingEverything: false),
            "after a quiet second the next change starts its round at once")
    }

    func testTheGapDoesNotDelayThePollOrARetry() {
        var machine = BackgroundSyncStateMachine(pollInterval: .milliseconds(500), verificationInterval: verification)
        _ = machine.handle(.tick, at: .zero)
        XCTAssertEqual(
            machine.handle(.roundSucceeded(deferredWhileLocked: 1), at: .zero), .wait(until: .milliseconds(500)))
        XCTAssertEqual(machine.handle(.tick, at: .milliseconds(500)), .sync(verifyingEverything: false))
        XCTAssertEqual(
            machine.handle(.roundFailed(.serverUnreachable), at: .milliseconds(500)), .wait(until: .milliseconds(1500)))
        XCTAssertEqual(machine.handle(.tick, at: .milliseconds(1500)), .sync(verifyingEverything: false))
    }

    // MARK: - The listener

    /// A settled machine that polls hourly and verifies daily, so only the listener schedules rounds.
    private func quiet() -> BackgroundSyncStateMachine {
        var machine = BackgroundSyncStateMachine(pollInterval: .seconds(3600), verificationInterval: .seconds(86_400))
        _ = machine.handle(.tick, at: .zero)
        _ = machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: .zero)
        _ = machine.handle(.compactionFinished, at: .zero)
        return machine
    }

    func testALostListenerReconnectsWithExponentialBackoffAndOneCatchUpRoundEach() {
        var machine = quiet()
        var now = Duration.seconds(10)
        machine.listenerConnected(at: now)
        var waits: [Duration] = []
        for _ in 0..<11 {
            guard case .wait(let until) = machine.handle(.listenerLost, at: now) else {
                return XCTFail("no wait after the listener was lost")
            }
            waits.append(until - now)
            XCTAssertFalse(machine.mayListen(at: until - .milliseconds(1)), "no reconnecting before the backoff ends")
            XCTAssertTrue(machine.mayContactServer(at: now), "rounds are not held back by the listener")
            XCTAssertEqual(
                machine.handle(.tick, at: until - .milliseconds(1)), .wait(until: until), "no catch-up round before")
            now = until
            XCTAssertTrue(machine.mayListen(at: now))
            XCTAssertEqual(
                machine.handle(.tick, at: now), .sync(verifyingEverything: false),
                "one catch-up round when the listener may reconnect")
            machine.listenerConnected(at: now)
            guard case .wait = machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: now) else {
                return XCTFail("a second round after one loss")
            }
        }
        XCTAssertEqual(waits, [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300].map { Duration.seconds($0) })
    }

    func testTheListenerBackoffRestartsOnlyAfterTheListenerStayedUp() {
        var machine = quiet()
        machine.listenerConnected(at: .seconds(10))
        XCTAssertEqual(machine.handle(.listenerLost, at: .seconds(10)), .wait(until: .seconds(11)))
        _ = machine.handle(.tick, at: .seconds(11))
        machine.listenerConnected(at: .seconds(11))
        _ = machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: .seconds(11))
        XCTAssertEqual(
            machine.handle(.listenerLost, at: .seconds(70)), .wait(until: .seconds(72)),
            "up for 59 s: the backoff goes on doubling")
        _ = machine.handle(.tick, at: .seconds(72))
        machine.listenerConnected(at: .seconds(72))
        _ = machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: .seconds(72))
        XCTAssertEqual(
            machine.handle(.listenerLost, at: .seconds(132)), .wait(until: .seconds(133)),
            "up for 60 s: back to one second")
    }

    func testAListenerThatCannotConnectIsRetriedWithBackoff() {
        var machine = settled()
        XCTAssertEqual(machine.handle(.changeNoticed, at: .seconds(5)), .sync(verifyingEverything: false))
        machine.listenerLost(at: .seconds(5))  // listening failed as the round started
        XCTAssertFalse(machine.mayListen(at: .seconds(5)))
        XCTAssertEqual(
            machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: .seconds(5)), .wait(until: .seconds(6)),
            "a catch-up round when listening may be tried again")
        XCTAssertEqual(machine.handle(.tick, at: .seconds(6)), .sync(verifyingEverything: false))
        XCTAssertTrue(machine.mayListen(at: .seconds(6)))
        machine.listenerLost(at: .seconds(6))
        XCTAssertEqual(
            machine.handle(.roundSucceeded(deferredWhileLocked: 0), at: .seconds(6)), .wait(until: .seconds(8)))
    }

    func testNoListeningWhileRoundsBackOff() {
        var machine = settled()
        _ = machine.handle(.changeNoticed, at: .seconds(5))
        XCTAssertEqual(machine.handle(.roundFailed(.serverUnreachable), at: .seconds(5)), .wait(until: .seconds(6)))
        XCTAssertFalse(machine.mayListen(at: .milliseconds(5500)))
        XCTAssertTrue(machine.mayListen(at: .seconds(6)))
    }
}
