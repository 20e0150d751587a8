import Foundation
import FuzzTargets

/// libFuzzer's callback: one input through ``BackupFuzzTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBackup(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    _ = BackupFuzzTarget.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

/// `fuzz-backup`: libFuzzer over BackupFuzzTarget when built by scripts/fuzz, else a replayer.
@main
enum BackupFuzzer {
    static func main() { FuzzMain.run(fuzzBackup, seeds: BackupFuzzTarget.seeds) }
}
