import Foundation
import FuzzTargets
#if canImport(Security) && !SECURE_STORAGE_FORCE_PORTABLE
/// On Apple platforms SecKey is Apple's own implementation, which this project does not fuzz.
@main
enum SecKeyFuzzer {
    static func main() {
        print("fuzz-seckey fuzzes KeychainServices' own SecKey implementation, which exists off Apple platforms only.")
    }
}
#else
/// libFuzzer's callback: one input through ``SecKeyFuzzTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSecKey(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    _ = SecKeyFuzzTarget.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

/// `fuzz-seckey`: libFuzzer over SecKeyFuzzTarget when built by scripts/fuzz, else a replayer.
@main
enum SecKeyFuzzer {
    static func main() { FuzzMain.run(fuzzSecKey, seeds: { SecKeyFuzzTarget.seeds }) }
}
#endif
