#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KeychainCore
import StressSupport

/// Random writes forever, each bracketed by journal lines, until the test kills the process.
struct CrashLoop {
    let location: KeychainLocation
    let journalPath: String
    let firstSequence: Int
    let keyCount: Int

    init(_ arguments: StressArguments) throws {
        location = try arguments.location
        journalPath = try arguments.string("journal")
        firstSequence = try arguments.integer("first-sequence")
        keyCount = try arguments.integer("keys", default: 24)
    }

    func run() throws {
        let journal = try JournalFile(path: journalPath)
        let keychain = try Keychain(location: location)
        var sequence = firstSequence
        while true {
            let operation = StressOperation.allCases.randomElement()!
            let key = "k\(Int.random(in: 0..<keyCount))"
            try journal.append("B \(sequence) \(operation.rawValue) \(key)\n")
            let outcome = try operation.perform(
                on: keychain, service: "crash", key: key, value: stressValue(sequence: sequence))
            try journal.append("A \(sequence) \(outcome.rawValue)\n")
            sequence += 1
        }
    }
}
