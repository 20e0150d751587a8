import Foundation
#if FUZZING
import CFuzzerDriver
#endif

/// The `main` of the fuzzer executables (`fuzz-secitem`, `fuzz-backup`).
///
/// Built by `scripts/fuzz` (with `-sanitize=fuzzer,address -DFUZZING`) they are libFuzzer
/// binaries and take libFuzzer's options. In an ordinary build they replay inputs instead:
/// `fuzz-backup Fuzz/Corpus/backup` runs every file under the paths given and reports how many
/// ran, which is how a crash file from a fuzzing run becomes a reproducible case;
/// `fuzz-backup --write-seeds DIR` writes the target's seed inputs.
public enum FuzzMain {
    /// libFuzzer's `LLVMFuzzerTestOneInput`: one input, always answering 0.
    public typealias Callback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

    /// Runs the fuzzer executable: libFuzzer's driver over `callback` in a fuzzing build, the
    /// replayer (feeding each input to the same `callback`) otherwise; then exits.
    public static func run(_ callback: Callback, seeds: () throws -> [Data]) -> Never {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
        #else
        exit(
            replay(seeds: seeds) { input in
                _ = input.withUnsafeBytes { callback($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) }
            })
        #endif
    }

    /// Runs the replayer (or, with `--write-seeds DIR`, writes `seeds` there); returns the exit status.
    public static func replay(seeds: () throws -> [Data], _ target: (Data) -> Void) -> Int32 {
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == "--write-seeds" {
            do {
                for (index, seed) in try seeds().enumerated() {
                    try seed.write(to: URL(fileURLWithPath: arguments[2]).appendingPathComponent("seed-\(index)"))
                }
                return 0
            } catch {
                FileHandle.standardError.write(Data("cannot write the seeds: \(error)\n".utf8))
                return 74
            }
        }
        let paths = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("-") }
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: \(arguments[0]) FILE_OR_DIRECTORY… | --write-seeds DIR\n".utf8))
            return 64
        }
        var count = 0
        for path in paths {
            for file in files(at: URL(fileURLWithPath: path)) {
                guard let data = FileManager.default.contents(atPath: file.path) else { continue }
                target(data)
                count += 1
            }
        }
        print("ran \(count) inputs without a crash")
        return 0
    }

    /// The file at `url`, or the regular files under it, sorted by name.
    public static func files(at url: URL) -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [url] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.sorted().map { url.appendingPathComponent($0) }.filter { !$0.hasDirectoryPath }
    }
}
