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
}
