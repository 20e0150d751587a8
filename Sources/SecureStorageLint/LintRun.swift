import Foundation

/// Lints many files on several threads and collects the findings in a stable order.
package struct LintRun: Sendable {
    /// The files linted.
    package var fileCount: Int
    /// Every finding, ordered by file, line and column.
    package var findings: [Finding]
    /// Files that could not be read, with why.
    package var unreadable: [(path: String, reason: String)]

    /// Lints `files` with `linter` on up to `jobs` threads.
    package static func lint(_ files: [String], with linter: SourceFileLinter, jobs: Int) -> LintRun {
        let results = UnsafeMutableBufferPointer<Result<[Finding], FileReadError>>.allocate(capacity: files.count)
        results.initialize(repeating: .success([]))
        defer { results.deallocate() }
        nonisolated(unsafe) let shared = results
        let workers = max(1, min(jobs, files.count))
        // Syntax trees are walked recursively: each worker gets a 1 GiB stack (reserved, touched
        // only as deep as a file goes), so that a 16 MiB file of one long chain (`a.b.b.b…`)
        // cannot overflow it.
        let done = DispatchGroup()
        for worker in 0..<workers {
            done.enter()
            let thread = Thread {
                for index in stride(from: worker, to: files.count, by: workers) {
                    let path = files[index]
                    guard let data = FileManager.default.contents(atPath: path) else {
                        shared[index] = .failure(FileReadError(reason: "cannot be read"))
                        continue
                    }
                    let bytes = Array(data)
                    if let refusal = InputLimits.refusal(of: bytes) {
                        shared[index] = .failure(FileReadError(reason: refusal))
                        continue
                    }
                    shared[index] = .success(linter.lint(path: path, bytes: bytes))
                }
                done.leave()
            }
            thread.stackSize = 1 << 30
            thread.start()
        }
        done.wait()
        var findings: [Finding] = []
        var unreadable: [(String, String)] = []
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let found): findings.append(contentsOf: found)
            case .failure(let error): unreadable.append((files[index], error.reason))
            }
        }
        return LintRun(fileCount: files.count, findings: findings, unreadable: unreadable)
    }

    /// The number of findings of each severity.
    package var counts: [Severity: Int] {
        var counts: [Severity: Int] = [:]
        for finding in findings { counts[finding.severity, default: 0] += 1 }
        return counts
    }
}

/// Why a file could not be linted.
package struct FileReadError: Error, Sendable {
    /// What happened.
    package var reason: String
}
