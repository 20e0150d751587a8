import Foundation

/// The loop of a `keychain-lint --worker` process: reads one ``LintWorkerRequest`` per line on
/// standard input (JSON) and answers each with one line on standard output, until standard
/// input ends.
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
        var module: ModuleFacts?
        FileHandle.standardOutput.write(Data("\n".utf8))
        while let line = readLine(strippingNewline: true) {
            // Encoding values of these shapes does not fail; an empty line would read as a crash.
            let answer: Data
            switch try? decoder.decode(LintWorkerRequest.self, from: Data(line.utf8)) {
            case .collect(let path):
                answer = (try? encoder.encode(linter.collectFacts(atPath: path))) ?? Data()
            case .module(let facts):
                module = facts
                answer = Data("true".utf8)
            case .lint(let path, let isTestCode):
                let outcome = linter.lintFile(atPath: path, module: module, isTestCode: isTestCode)
                answer = (try? encoder.encode(outcome)) ?? Data()
            case nil:
                answer = (try? encoder.encode(FileLintOutcome.notLinted(.unreadable))) ?? Data()
            }
            FileHandle.standardOutput.write(answer + Data("\n".utf8))
        }
    }
}
