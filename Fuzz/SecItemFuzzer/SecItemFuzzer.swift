import Foundation
import FuzzTargets
#if canImport(Security) && !SECURE_STORAGE_FORCE_PORTABLE
/// On Apple platforms SecItem is Apple's own implementation, which this project does not fuzz.
@main
enum SecItemFuzzer {
    static func main() {
        print(
            "fuzz-secitem fuzzes KeychainServices' own SecItem implementation, which exists off Apple platforms only.")
    }
}
#else
/// libFuzzer's callback: one input through ``SecItemFuzzTarget``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSecItem(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    _ = SecItemFuzzTarget.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

/// `fuzz-secitem`: libFuzzer over SecItemFuzzTarget when built by scripts/fuzz, else a replayer.
@main
enum SecItemFuzzer {
    static func main() { FuzzMain.run(fuzzSecItem, seeds: { SecItemFuzzTarget.seeds }) }
}
#endif
