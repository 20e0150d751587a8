import Foundation
import StressSupport

/// One operation of the crash loop as its journal recorded it.
struct JournalEntry: Equatable {
    let sequence: Int
    let operation: StressOperation
    let key: String
    /// What the engine answered; nil while the operation was still running when the process died.
    var outcome: StressOperation.Outcome?
}

/// The journal `keychain-stress crash-loop` wrote before it was killed: operations that returned
/// (acknowledged) and at most one that was still running.
struct CrashJournal {
    private(set) var acknowledged: [JournalEntry] = []
    private(set) var inFlight: JournalEntry?

    /// Parses the journal. A last line without its newline was torn by the kill and is dropped:
    /// a torn "B" line means the operation never started, a torn "A" line leaves it in flight.
    init(_ text: String) throws {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast()  // empty after a final newline, else the torn line
        for line in lines {
            let fields = line.split(separator: " ").map(String.init)
            switch (fields.first, fields.count) {
            case ("B", 4):
                guard inFlight == nil, let sequence = Int(fields[1]),
                    let operation = StressOperation(rawValue: fields[2])
                else {
                    throw JournalError("unexpected line \(line)")
                }
                inFlight = JournalEntry(sequence: sequence, operation: operation, key: fields[3])
            case ("A", 3):
                guard var entry = inFlight, Int(fields[1]) == entry.sequence,
                    let outcome = StressOperation.Outcome(rawValue: fields[2])
                else {
                    throw JournalError("acknowledgement without its operation: \(line)")
                }
                entry.outcome = outcome
                acknowledged.append(entry)
                inFlight = nil
            default:
                throw JournalError("unexpected line \(line)")
            }
        }
    }

    /// The first sequence number no entry of this journal used.
    func nextSequence(after previous: Int) -> Int {
        max(previous, (inFlight ?? acknowledged.last).map { $0.sequence + 1 } ?? previous)
    }
}

struct JournalError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What the keychain must hold: for every key, the sequence number of its latest acknowledged value.
struct AcknowledgedState {
    private(set) var values: [String: Int] = [:]

    /// Applies an acknowledged operation; returns a complaint when its outcome contradicts the
    /// state (an add that found a duplicate of nothing, an update that missed an existing item…).
    mutating func apply(_ entry: JournalEntry) -> String? {
        let expected = entry.operation.expectedOutcome(present: values[entry.key] != nil)
        guard entry.outcome == expected else {
            return
                "\(entry.operation.rawValue) #\(entry.sequence) of \(entry.key) answered \(entry.outcome?.rawValue ?? "-"), expected \(expected.rawValue)"
        }
        values[entry.key] = entry.operation.result(sequence: entry.sequence, on: values[entry.key])
        return nil
    }

    /// Adopts what the keychain holds for the key of the operation the kill interrupted.
    mutating func resolve(_ key: String, to sequence: Int?) { values[key] = sequence }
}
