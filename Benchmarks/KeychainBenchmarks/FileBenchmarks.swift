#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import KeychainServices
import SecureStorage

/// Protected files against plain files: a durable write (temporary file, fsync, rename, fsync of
/// the directory, as ProtectedFiles does) and a whole read, of 4 KiB, 1 MiB and 64 MiB, for the
/// classes complete, completeUnlessOpen (an X25519 agreement more) and none
/// (completeUntilFirstUserAuthentication takes the same path as complete). The plain file and
/// each class take turns sample by sample, and each protected row is printed with its ratio to
/// the plain file's of the same run (p50 time; for 64 MiB also throughput).
///
///     swift run --package-path Benchmarks -c release KeychainBenchmarks --only files [--items N]
enum FileBenchmarks {
    static func run(samples: Int, in directory: URL) throws -> [Measurement] {
        let keychain = try Keychain(
            location: KeychainLocation(directory: directory.appendingPathComponent("files-keychain")),
            options: KeychainOptions(tpm: nil))
        SecItemEnvironment.useKeychain(keychain)
        let files = try ProtectedFiles(directory: directory.appendingPathComponent("protected"))
        let plain = directory.appendingPathComponent("plain")
        try FileManager.default.createDirectory(
            at: plain, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var results: [Measurement] = []
        var ratios: [String] = []
        let protections = [FileProtection.complete, .completeUnlessOpen, .none]
        for (label, size, count) in [
            ("4 KiB", 4 << 10, min(samples, 200)), ("1 MiB", 1 << 20, min(samples, 100)),
            ("64 MiB", 64 << 20, min(samples, 8))
        ] {
            let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131) })
            var plainWrite = Measurement("write \(label), plain file (durable)")
            var plainRead = Measurement("read \(label), plain file")
            var writes = protections.map { Measurement("write \(label), protected \($0)") }
            var reads = protections.map { Measurement("read \(label), protected \($0)") }
            for _ in 0..<count {
                try plainWrite.time { try durableWrite(data, to: plain.appendingPathComponent("file")) }
                _ = try plainRead.time { try Data(contentsOf: plain.appendingPathComponent("file")) }
                for (index, protection) in protections.enumerated() {
                    try writes[index].time { try files.write(data, to: "file-\(protection)", protection: protection) }
                    _ = try reads[index].time { try files.read("file-\(protection)") }
                }
            }
            results += [plainWrite, plainRead]
            for index in protections.indices {
                results += [writes[index], reads[index]]
                ratios.append(ratio(writes[index], to: plainWrite, size: size))
                ratios.append(ratio(reads[index], to: plainRead, size: size))
            }
        }
        print("Protected files against the plain file of the same run (p50):")
        ratios.forEach { print("  \($0)") }
        return results
    }

    /// `name: 2.1× the plain file's time` and, for large files, both throughputs.
    private static func ratio(_ protected: Measurement, to plain: Measurement, size: Int) -> String {
        let times = protected.median / max(plain.median, 0.001)
        var line = protected.name + String(format: ": %.2f× plain", times)
        if size >= 1 << 20 {
            let throughput = { (measurement: Measurement) in Double(size) / (measurement.median / 1e6) / Double(1 << 20)
            }
            line += String(
                format: " (%.0f MiB/s vs %.0f MiB/s, %.0f %% of plain)", throughput(protected), throughput(plain),
                100 / times)
        }
        return line
    }

    /// What an app does to write a file durably without SecureStorage.
    private static func durableWrite(_ data: Data, to url: URL) throws {
        let temporary = url.appendingPathExtension("tmp")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: temporary)
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        let directory = open(url.deletingLastPathComponent().path, O_RDONLY)
        fsync(directory)
        close(directory)
    }
}
#endif
