import Foundation
import KeychainCore
import StressSupport
import XCTest

/// Issue 7's crash-safety suite: `keychain-stress crash-loop` writes, updates, upserts and
/// deletes until it is killed with SIGKILL at a random moment, over and over on one keychain.
/// After every kill the keychain must open, verify clean (rows, blind indexes, state digest), and
/// hold exactly the latest acknowledged value of every item; only the one operation the kill
/// interrupted may have happened or not.
///
/// `STRESS_KILLS` sets the number of kills (default 200).
final class CrashSafetyTests: XCTestCase {
    func testEveryAcknowledgedWriteSurvivesSIGKILL() throws {
        let kills = ProcessInfo.processInfo.environment["STRESS_KILLS"].flatMap(Int.init) ?? 200
        let scratch = try ScratchDirectory("kc-crash")
        let home = scratch.file("keychain")
        var state = AcknowledgedState()
        var sequence = 0
        var statistics = CrashStatistics()
        var startup = StartupTimes()
        for round in 0..<kills {
            let journalURL = scratch.file("journal-\(round)")
            // Most kills land among writes; one in eight lands anywhere between process start
            // and the first write, which includes opening the keychain.
            try runCrashLoop(
                on: home, journal: journalURL, firstSequence: sequence,
                killed: round % 8 != 0 ? .amongWrites : .duringStartUp,
                round: round, startup: &startup, scratch: scratch)

            // Killed before it opened the journal, the helper wrote nothing at all.
            let written = FileManager.default.contents(atPath: journalURL.path) ?? Data()
            let journal = try CrashJournal(String(decoding: written, as: UTF8.self))
            for entry in journal.acknowledged {
                if let complaint = state.apply(entry) { return XCTFail("round \(round): \(complaint)") }
            }
            sequence = journal.nextSequence(after: sequence)
            statistics.count(journal)
            try checkKeychain(
                at: home, against: &state, inFlight: journal.inFlight, round: round, statistics: &statistics)
            try? FileManager.default.removeItem(at: journalURL)
        }
        print("crash safety: \(statistics.summary(kills: kills))")
    }

    /// Kills while a keychain is being created — device key, database, header, keybag — then
    /// checks that the next open works, verifies clean, and leaves no temporary key file behind.
    func testKillsWhileCreatingAKeychainLeaveAUsableOne() throws {
        let scratch = try ScratchDirectory("kc-create")
        var startup = StartupTimes()
        for round in 0..<64 {
            let home = scratch.file("keychain-\(round)")
            // The first rounds learn how long creating a keychain takes here.
            try runCrashLoop(
                on: home, journal: scratch.file("journal-\(round)"), firstSequence: 0,
                killed: round < 4 ? .afterFirstWrite : .duringStartUp, round: round, startup: &startup, scratch: scratch
            )
            try assertVerifiesClean(Keychain(location: KeychainLocation(directory: home)), round: round)
            let leftovers = try FileManager.default.subpathsOfDirectory(atPath: home.path).filter {
                $0.contains(".tmp-")
            }
            XCTAssertEqual(leftovers, [], "round \(round): temporary files survived the next open")
        }
    }

    /// When a round's SIGKILL lands.
    private enum KillMoment {
        /// 0–25 ms after the first acknowledged write.
        case amongWrites
        /// Right after the first acknowledged write.
        case afterFirstWrite
        /// Anywhere from process start to the typical time of the first write.
        case duringStartUp
    }

    /// Starts `keychain-stress crash-loop` on `home`, kills it with SIGKILL at `moment` (start-up
    /// times learnt from rounds that wait for a write), and checks that the kill was ours.
    private func runCrashLoop(
        on home: URL, journal: URL, firstSequence: Int, killed moment: KillMoment, round: Int,
        startup: inout StartupTimes, scratch: ScratchDirectory
    ) throws {
        let errors = scratch.file("stderr")
        let helper = try StressHelper.start(
            ["crash-loop", "--keychain", home.path, "--journal", journal.path, "--first-sequence", "\(firstSequence)"],
            output: scratch.file("stdout"), errors: errors)
        if moment == .duringStartUp {
            usleep(UInt32(Double.random(in: 0...startup.typical) * 1_000_000))
        } else {
            let started = Date()
            try waitForFirstAcknowledgement(journal, helper: helper, errors: errors)
            startup.record(Date().timeIntervalSince(started))
            if moment == .amongWrites { usleep(UInt32.random(in: 0...25_000)) }
        }
        StressHelper.killHard(helper)
        try requireKilledBySIGKILL(helper, round: round, errors: errors)
    }

    private func assertVerifiesClean(_ keychain: Keychain, round: Int) throws {
        let report = try keychain.verify()
        XCTAssertTrue(
            report.isClean,
            "round \(round): \(report.damagedItems) \(report.databaseProblems) \(report.stateProblem ?? "")")
    }

    private func requireKilledBySIGKILL(_ helper: Process, round: Int, errors: URL) throws {
        // A Swift trap or a segfault in the engine is also an uncaught signal: only SIGKILL is ours.
        guard helper.terminationReason == .uncaughtSignal, helper.terminationStatus == SIGKILL else {
            throw JournalError(
                "round \(round): keychain-stress ended by itself (status \(helper.terminationStatus)): \(try String(contentsOf: errors, encoding: .utf8))"
            )
        }
    }

    /// Opens the keychain as the next process would, verifies it, and compares every item.
    private func checkKeychain(
        at home: URL, against state: inout AcknowledgedState, inFlight: JournalEntry?, round: Int,
        statistics: inout CrashStatistics
    ) throws {
        guard FileManager.default.fileExists(atPath: home.appendingPathComponent("data/keychain.db").path) else {
            XCTAssertTrue(state.values.isEmpty, "round \(round): the keychain vanished")
            return
        }
        let keychain = try Keychain(location: KeychainLocation(directory: home))
        try assertVerifiesClean(keychain, round: round)
        var stored: [String: Int] = [:]
        for item in try keychain.findAll(Query(.genericPassword, [.service: "crash"]), returning: [.attributes, .data])
        {
            let key = try XCTUnwrap(item.attributes[.account]?.stringValue)
            let data = try XCTUnwrap(item.data)
            let sequence = try XCTUnwrap(
                stressSequence(of: data), "round \(round): \(key) holds a value no operation wrote")
            XCTAssertEqual(data, stressValue(sequence: sequence), "round \(round): \(key) holds a damaged value")
            XCTAssertNil(stored.updateValue(sequence, forKey: key), "round \(round): \(key) exists twice")
        }
        var expected = state.values
        if let inFlight {
            let before = state.values[inFlight.key]
            let after = inFlight.operation.result(sequence: inFlight.sequence, on: before)
            let found = stored[inFlight.key]
            XCTAssertTrue(
                found == before || found == after,
                "round \(round): \(inFlight.key) holds \(found.map(String.init) ?? "nothing") after the interrupted \(inFlight.operation.rawValue) #\(inFlight.sequence); expected \(before.map(String.init) ?? "nothing") or \(after.map(String.init) ?? "nothing")"
            )
            if before != after { statistics.interrupted(completed: found == after) }
            state.resolve(inFlight.key, to: found)
            expected[inFlight.key] = found
        }
        XCTAssertEqual(stored, expected, "round \(round): the keychain differs from the acknowledged writes")
    }

    /// Returns once the journal acknowledges a write; on failure the helper is killed first.
    private func waitForFirstAcknowledgement(_ journal: URL, helper: Process, errors: URL) throws {
        var acknowledged = false
        defer { if !acknowledged { StressHelper.killHard(helper) } }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let data = FileManager.default.contents(atPath: journal.path), data.contains(UInt8(ascii: "A")) {
                acknowledged = true
                return
            }
            guard helper.isRunning else {
                throw JournalError(
                    "keychain-stress stopped before its first write: \(try String(contentsOf: errors, encoding: .utf8))"
                )
            }
            usleep(1_000)
        }
        throw JournalError("keychain-stress acknowledged nothing within 30 s")
    }
}

/// How long the helper takes from spawn to its first acknowledged write on this machine, so kills
/// aimed at start-up land across all of it, however fast or slow the machine is.
struct StartupTimes {
    private var samples: [TimeInterval] = []

    mutating func record(_ seconds: TimeInterval) { samples.append(seconds) }

    /// The median so far (50 ms before the first sample).
    var typical: TimeInterval { samples.isEmpty ? 0.05 : samples.sorted()[samples.count / 2] }
}

/// Counts for the summary line the suite prints.
struct CrashStatistics {
    private var acknowledged = 0
    private var killsBeforeFirstWrite = 0
    private var interruptedApplied = 0
    private var interruptedLost = 0

    mutating func count(_ journal: CrashJournal) {
        acknowledged += journal.acknowledged.count
        if journal.acknowledged.isEmpty { killsBeforeFirstWrite += 1 }
    }

    mutating func interrupted(completed: Bool) {
        if completed { interruptedApplied += 1 } else { interruptedLost += 1 }
    }

    func summary(kills: Int) -> String {
        "\(kills) SIGKILLs, \(acknowledged) acknowledged writes all present, \(killsBeforeFirstWrite) kills before the first write, interrupted writes: \(interruptedApplied) committed, \(interruptedLost) rolled back"
    }
}
