import Foundation
import FuzzTargets
#if FUZZING
import CFuzzerDriver

/// libFuzzer's callback: one input through BackupFuzzTarget.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBackup(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    _ = BackupFuzzTarget.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}
#endif

/// `fuzz-backup`: libFuzzer over BackupFuzzTarget when built by scripts/fuzz, else a replayer.
@main
enum BackupFuzzer {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzBackup))
        #else
        exit(FuzzMain.replay(seeds: BackupFuzzTarget.seeds) { _ = BackupFuzzTarget.run($0) })
        #endif
    }
}
