import Foundation
import LintUnderBenchmark

/// keychain-lint's throughput on one thread: parsing (swift-syntax) and the rule passes timed
/// apart, over every Swift file under the given paths, the corpus read into memory first.
enum LintBenchmarks {
    static func run(paths: [String], rounds: Int, json: Bool) throws {
        let files = try SourceFileFinder().files(in: paths)
        let sources = files.map { path in
            (path: path, bytes: Array(FileManager.default.contents(atPath: path) ?? Data()))
        }
        let bytes = sources.reduce(0) { $0 + $1.bytes.count }
        let linter = SourceFileLinter()
        var parseSeconds = 0.0
        var ruleSeconds = 0.0
        var findings = 0
        for _ in 0..<rounds {
            findings = 0
            for source in sources {
                let start = DispatchTime.now().uptimeNanoseconds
                let parsed = ParsedSource(bytes: source.bytes)
                let parsedAt = DispatchTime.now().uptimeNanoseconds
                findings +=
                    linter.lint(path: source.path, parsed: parsed, module: .ofSingleFile(parsed, path: source.path))
                    .count
                let end = DispatchTime.now().uptimeNanoseconds
                parseSeconds += Double(parsedAt - start) / 1e9
                ruleSeconds += Double(end - parsedAt) / 1e9
            }
        }
        let linted = Double(files.count * rounds)
        let result: [String: Any] = [
            "files": files.count, "bytes": bytes, "rounds": rounds, "findings": findings,
            "parseFilesPerSecond": Int(linted / parseSeconds), "rulesFilesPerSecond": Int(linted / ruleSeconds),
            "totalFilesPerSecond": Int(linted / (parseSeconds + ruleSeconds)),
            "rulesMegabytesPerSecond": Double(bytes * rounds) / ruleSeconds / 1e6
        ]
        if json {
            let data = try JSONSerialization.data(withJSONObject: result, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(
                "keychain-lint on \(files.count) files (\(bytes / 1024) KiB), \(rounds) rounds, one thread: \(findings) findings per round"
            )
            print(
                "  parse \(result["parseFilesPerSecond"]!) files/s, rules \(result["rulesFilesPerSecond"]!) files/s, both \(result["totalFilesPerSecond"]!) files/s"
            )
        }
    }
}
