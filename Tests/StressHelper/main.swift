// keychain-stress: the workload process behind the crash-safety and concurrency suites
// (Tests/KeychainStressTests). It is a separate executable because those suites kill it with
// SIGKILL or run several copies at once, which a test process cannot do to itself.
//
//   keychain-stress crash-loop --keychain DIR --journal FILE --first-sequence N [--keys K]
//       Writes, updates, upserts and deletes forever. Before each operation it appends
//       "B <seq> <op> <key>" to FILE, after it "A <seq> <outcome>", each with one write(2),
//       so whatever the journal acknowledges has returned from the engine.
//   keychain-stress mixed --keychain DIR --process P [--threads 4] [--operations 100]
//       Mixed operations from several threads on two instances; prints a JSON summary.
//   keychain-stress rotate-loop --keychain DIR --journal FILE --from N
//       Changes the passphrase step after step (class keys rotated each time) until killed.
//   keychain-stress read-loop --keychain DIR --seconds S --items N
//       Reads while another process rotates; prints a JSON summary.
//   keychain-stress bind-loop --keychain DIR --tpm TCTI --journal FILE
//       Binds and rebinds to the TPM (a new device secret each time) until killed.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KeychainCore

/// The command line, as `--name value` pairs after the mode.
struct StressArguments {
    let mode: String
    private let values: [String: String]

    init(_ arguments: [String]) throws {
        guard let mode = arguments.first else {
            throw StressFailure("usage: keychain-stress crash-loop|mixed --keychain DIR …")
        }
        self.mode = mode
        var values: [String: String] = [:]
        var remaining = arguments.dropFirst()
        while let name = remaining.popFirst() {
            guard name.hasPrefix("--"), let value = remaining.popFirst() else {
                throw StressFailure("expected --name value, got \(name)")
            }
            values[String(name.dropFirst(2))] = value
        }
        self.values = values
    }

    func string(_ name: String) throws -> String {
        guard let value = values[name] else { throw StressFailure("missing --\(name)") }
        return value
    }

    func integer(_ name: String, default fallback: Int? = nil) throws -> Int {
        guard let text = values[name] else {
            if let fallback { return fallback }
            throw StressFailure("missing --\(name)")
        }
        guard let value = Int(text) else { throw StressFailure("--\(name) needs a number, got \(text)") }
        return value
    }

    var location: KeychainLocation {
        get throws { KeychainLocation(directory: URL(fileURLWithPath: try string("keychain"))) }
    }
}

/// A failure of the workload itself: printed to stderr, exit status 1.
struct StressFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

do {
    let arguments = try StressArguments(Array(CommandLine.arguments.dropFirst()))
    switch arguments.mode {
    case "crash-loop": try CrashLoop(arguments).run()
    case "mixed": try MixedWorkload(arguments).run()
    case "rotate-loop": try RotateLoop(arguments).run()
    case "read-loop": try ReadLoop(arguments).run()
    case "bind-loop": try BindLoop(arguments).run()
    default: throw StressFailure("unknown mode \(arguments.mode)")
    }
} catch {
    FileHandle.standardError.write(Data("keychain-stress: \(error)\n".utf8))
    exit(1)
}
