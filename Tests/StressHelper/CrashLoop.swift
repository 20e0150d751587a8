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
        let journal = open(journalPath, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        guard journal >= 0 else { throw StressFailure("cannot open the journal \(journalPath): errno \(errno)") }
        let keychain = try Keychain(location: location)
        var sequence = firstSequence
        while true {
            let operation = StressOperation.allCases.randomElement()!
            let key = "k\(Int.random(in: 0..<keyCount))"
            try append("B \(sequence) \(operation.rawValue) \(key)\n", to: journal)
            let outcome = try operation.perform(on: keychain, service: "crash", key: key, value: stressValue(sequence: sequence))
            try append("A \(sequence) \(outcome.rawValue)\n", to: journal)
            sequence += 1
        }
    }

    /// One write(2) per line: a line is in the journal whole, or (killed mid-write) torn at the end.
    private func append(_ line: String, to descriptor: Int32) throws {
        let bytes = Array(line.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else { throw StressFailure("journal write failed: errno \(errno)") }
    }
}
