import Foundation

// Benchmarks for SecureStorage. Run in release mode:
//   swift run -c release KeychainBenchmarks [--items N] [--json] [--no-passphrase]
// Each run uses a fresh temporary keychain on the same file system as $TMPDIR.

let arguments = CommandLine.arguments
let items = arguments.firstIndex(of: "--items").flatMap { Int(arguments[$0 + 1]) } ?? 1000
let json = arguments.contains("--json")
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }

do {
    let only = arguments.firstIndex(of: "--only").map { arguments[$0 + 1] }
    var results: [Measurement] = []
    if only == nil || only == "core" { results += try CoreBenchmarks.run(items: items, in: directory) }
    if only == nil && !arguments.contains("--no-passphrase") { results += try CoreBenchmarks.passphrase(in: directory) }
    if only == nil || only == "api" { results += try ExtraBenchmarks.run(items: items, in: directory) }
    if only == nil || only == "maintenance" { results += try MaintenanceBenchmarks.run(items: items, in: directory) }
    if json {
        let data = try JSONSerialization.data(withJSONObject: ["items": items, "results": results.map(\.json)], options: [.prettyPrinted, .sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    } else {
        print("SecureStorage benchmarks, \(items) items, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print(Measurement.header)
        results.forEach { print($0.row) }
    }
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
