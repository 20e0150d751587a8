import Foundation

/// The loop of a `keychain-lint --worker` process: reads one path per line on standard input (a
/// JSON string), lints that file, and answers with one line on standard output (a
/// ``FileLintOutcome`` in JSON), until standard input ends.
///
/// It first writes an empty line, so that the process that started it can tell start-up (loading
/// the executable) from linting, which alone the time limit measures. It exits as soon as the
/// process that started it is gone (killed by CI, say), rather than finish a parse that may take
/// hours.
package enum LintWorkerService {
    /// Serves requests with `linter` on a large-stack thread until standard input ends.
    package static func serve(with linter: SourceFileLinter) {
        exitWhenOrphaned()
        let finished = DispatchSemaphore(value: 0)
        LargeStackThread.start {
            answer(with: linter)
            finished.signal()
        }
        finished.wait()
    }

    /// Checks every half second whether the parent changed (this process was handed to init or
    /// a subreaper), and then exits at once.
    private static func exitWhenOrphaned() {
        let parent = getppid()
        Thread.detachNewThread {
            while getppid() == parent { usleep(500_000) }
            _exit(1)
        }
    }

    private static func answer(with linter: SourceFileLinter) {
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        FileHandle.standardOutput.write(Data("\n".utf8))
        while let line = readLine(strippingNewline: true) {
            let outcome: FileLintOutcome
            if let path = try? decoder.decode(String.self, from: Data(line.utf8)) {
                outcome = linter.lintFile(atPath: path)
            } else {
                outcome = .notLinted(.unreadable)
            }
            // Encoding a value of this shape does not fail; an empty line would read as a crash.
            let answer = (try? encoder.encode(outcome)) ?? Data()
            FileHandle.standardOutput.write(answer + Data("\n".utf8))
        }
    }
}
