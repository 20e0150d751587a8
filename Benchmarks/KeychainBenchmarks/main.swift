import Foundation

// Benchmarks for SecureStorage. Run in release mode:
//   swift run --package-path Benchmarks -c release KeychainBenchmarks [--items N] [--json] [--no-passphrase] [--only core|api|maintenance|keys|reads|rotation|tpm|files|sealed]
//   swift run --package-path Benchmarks -c release KeychainBenchmarks --scale 1000,10000,100000 [--samples 1000] [--json]
//   scripts/instructions find,secitem-find,add,raw-read   (callgrind: instructions per call; runs
//     KeychainBenchmarks --instructions OPS [--items 10000] [--calls 1000] under valgrind)
//   swift run --package-path Benchmarks -c release KeychainBenchmarks --lint Sources,Tests [--rounds 5] [--json]
//     (keychain-lint's parse and rule passes in files/s on one thread; scripts/bench-lint runs it
//     pinned to one core on this repository and fetched Keychain wrappers)
//   swift run --package-path Benchmarks -c release KeychainBenchmarks --sync 10000,100000 [--devices 50] [--samples 200] [--json]
//     (sync through a throw-away PostgreSQL cluster: a new device's first sync, propagation
//     latency between two devices, a circle of many devices, server bytes per record, idle and after-k-writes syncs in a warm and a fresh process)
// Each run uses fresh temporary keychains on the file system of $TMPDIR.

let arguments = CommandLine.arguments
func value(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let items = value("--items").flatMap(Int.init) ?? 1000
let json = arguments.contains("--json")
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-bench-\(UUID().uuidString)")
/// Ends the run, removing its keychains (`exit` skips `defer`).
func finish(_ status: Int32) -> Never {
    try? FileManager.default.removeItem(at: directory)
    exit(status)
}

do {
    if let requested = value("--instructions") {
        try InstructionBenchmarks.run(
            operations: requested.split(separator: ",").map(String.init),
            items: value("--items").flatMap(Int.init) ?? 10_000, calls: value("--calls").flatMap(Int.init) ?? 1000,
            in: directory)
        finish(0)
    }
    if let paths = value("--lint") {
        try LintBenchmarks.run(
            paths: paths.split(separator: ",").map(String.init), rounds: value("--rounds").flatMap(Int.init) ?? 5,
            json: json)
        finish(0)
    }
    if let child = value("--sync-child") {
        try SyncLatencyBenchmarks.child(directory: child)
        finish(0)
    }
    if let sizes = value("--sync") {
        try SyncBenchmarks.run(
            sizes: sizes.split(separator: ",").compactMap { Int($0) },
            devices: value("--devices").flatMap(Int.init) ?? 50,
            samples: value("--samples").flatMap(Int.init) ?? 200, json: json, in: directory)
        finish(0)
    }
    if let sizes = value("--scale") {
        try ScaleReport.run(
            sizes: sizes.split(separator: ",").compactMap { Int($0) },
            samples: value("--samples").flatMap(Int.init) ?? 1000,
            json: json, in: directory)
        finish(0)
    }
    let only = value("--only")
    var results: [Measurement] = []
    if only == nil || only == "core" { results += try CoreBenchmarks.run(items: items, in: directory) }
    if only == nil && !arguments.contains("--no-passphrase") { results += try CoreBenchmarks.passphrase(in: directory) }
    #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
    if only == nil || only == "api" { results += try ExtraBenchmarks.run(items: items, in: directory) }
    if only == nil || only == "keys" { results += try KeyBenchmarks.run(samples: items, in: directory) }
    if only == "files" { results += try FileBenchmarks.run(samples: items, in: directory) }
    if only == "sealed" { results += try SealedColumnBenchmarks.run(items: items, in: directory) }
    #else
    if ["api", "keys", "files", "sealed"].contains(only) {
        FileHandle.standardError.write(
            Data(
                "--only \(only!) measures the SecItem API over this engine: on Apple platforms build with SECURE_STORAGE_FORCE_PORTABLE=1.\n"
                    .utf8))
        finish(64)
    }
    #endif
    if only == nil || only == "maintenance" { results += try MaintenanceBenchmarks.run(items: items, in: directory) }
    if only == "reads" { results += try CoreBenchmarks.reads(items: items, in: directory) }
    if only == "rotation" { results += try RotationBenchmarks.run(items: items, in: directory) }
    #if canImport(CTSS2)
    // Starts a software TPM (swtpm); not part of the default run.
    if only == "tpm" { results += try TPMBenchmarks.run(samples: items, in: directory) }
    #endif
    if json {
        let data = try JSONSerialization.data(
            withJSONObject: ["items": items, "results": results.map(\.json)], options: [.prettyPrinted, .sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    } else {
        print("SecureStorage benchmarks, \(items) items, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print(Measurement.header)
        results.forEach { print($0.row) }
    }
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    finish(1)
}
finish(0)
