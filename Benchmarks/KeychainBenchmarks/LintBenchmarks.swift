import Foundation
import LintUnderBenchmark

/// keychain-lint's throughput on one thread: parsing (swift-syntax), collecting the module facts
/// and the rule passes timed apart, over every Swift file under the given paths, the corpus read into memory first.
enum LintBenchmarks {
    static func run(paths: [String], rounds: Int, json: Bool) throws {
        let files = try SourceFileFinder().files(in: paths)
        let sources = files.map { path in
            (path: path, bytes: Array(FileManager.default.contents(atPath: path) ?? Data()))
        }
        let bytes = sources.reduce(0) { $0 + $1.bytes.count }
        let linter = SourceFileLinter()
        var parseSeconds = 0.0
        var factSeconds = 0.0
        var ruleSeconds = 0.0
        var findings = 0
        func seconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        for _ in 0..<rounds {
            findings = 0
            var start = DispatchTime.now().uptimeNanoseconds
            let parsed = sources.map { ParsedSource(bytes: $0.bytes) }
            parseSeconds += seconds(since: start)
            // The first pass: every file's facts, merged per module (the module of a path list is
            // the whole list, as `keychain-lint` does with the directories given).
            start = DispatchTime.now().uptimeNanoseconds
            let modules = ModuleMap.moduleIndices(of: files, roots: paths)
            let facts = LintWorkerPool.merge(
                zip(parsed, sources).map { .collected(.collect(from: $0, path: $1.path)) }, modules: modules)
            factSeconds += seconds(since: start)
            start = DispatchTime.now().uptimeNanoseconds
            for (index, source) in sources.enumerated() {
                findings += linter.lint(path: source.path, parsed: parsed[index], module: facts[modules[index]]).count
            }
            ruleSeconds += seconds(since: start)
        }
        let linted = Double(files.count * rounds)
        let result: [String: Any] = [
            "files": files.count, "bytes": bytes, "rounds": rounds, "findings": findings,
            "parseFilesPerSecond": Int(linted / parseSeconds), "rulesFilesPerSecond": Int(linted / ruleSeconds),
            "factsFilesPerSecond": Int(linted / factSeconds),
            "totalFilesPerSecond": Int(linted / (parseSeconds + factSeconds + ruleSeconds)),
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
                "  parse \(result["parseFilesPerSecond"]!) files/s, module facts \(result["factsFilesPerSecond"]!) files/s, rules \(result["rulesFilesPerSecond"]!) files/s, all three \(result["totalFilesPerSecond"]!) files/s"
            )
        }
    }
}
