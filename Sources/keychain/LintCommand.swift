import ArgumentParser
import Foundation

/// `keychain lint PATH…`: runs `keychain-lint`, the Keychain-misuse linter, which is a separate
/// executable so that this tool does not carry a Swift parser (twice the binary, slower start-up
/// for every command).
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find insecure storage and Keychain misuse in Swift code (runs keychain-lint).",
        discussion: """
            Every argument goes to keychain-lint, found beside this executable or on PATH; \
            `keychain lint --help` prints its options and rules.

            Examples:
              keychain lint Sources
              keychain lint --sarif --output lint.sarif Sources Tests
              keychain lint --explain delete-then-add
            """
    )

    @Argument(parsing: .captureForPassthrough, help: "Arguments for keychain-lint.")
    var arguments: [String] = []

    func run() throws {
        LintLauncher.execute(arguments)
    }
}

/// Replaces this process with `keychain-lint`, so its output and exit status are the command's.
enum LintLauncher {
    /// The exit status when keychain-lint cannot be found (as shells report a missing command).
    static let notInstalled: Int32 = 127

    /// Runs keychain-lint with `arguments`; returns only by exiting when it cannot be started.
    static func execute(_ arguments: [String]) -> Never {
        var candidates: [String] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(
                URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("keychain-lint")
                    .path)
        } else if let executable = Bundle.main.executablePath {
            candidates.append(
                URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
                    .appendingPathComponent("keychain-lint").path)
        }
        // Only absolute PATH entries: `.` or `bin` would run a keychain-lint of the directory being linted.
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        where directory.hasPrefix("/") {
            candidates.append(directory + "/keychain-lint")
        }
        for candidate in candidates where access(candidate, X_OK) == 0 {
            let argv = ([candidate] + arguments).map { strdup($0) } + [nil]
            execv(candidate, argv)
        }
        FileHandle.standardError.write(
            Data(
                "keychain: keychain-lint is neither beside this executable nor on PATH; build it with `swift build --product keychain-lint` and install it next to keychain.\n"
                    .utf8))
        exit(notInstalled)
    }
}
