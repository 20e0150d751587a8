#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import KeychainCore
import SecureStorageFoundation

/// The ANSI X9.63 key derivation function (SEC 1 v2 §3.6.1; RFC 8418 §2.1) that Apple's
/// `…X963SHA…` key-exchange and ECIES algorithms use:
/// `Hash(Z ‖ counter ‖ SharedInfo)` for a 32-bit big-endian counter starting at 1, blocks
/// concatenated and cut to the requested size.
enum X963KDF {
    /// The most bytes one derivation may produce here (1 MiB; the standard's limit of
    /// `hashLength × (2³² − 1)` is far beyond any key).
    static let maximumByteCount = 1 << 20

    /// `byteCount` bytes derived from the shared secret `secret` and `sharedInfo`.
    /// `byteCount` must be in `1...maximumByteCount` (callers check).
    static func derive(_ hash: SecKeyAlgorithmMeaning.Hash, secret: Data, sharedInfo: Data, byteCount: Int) -> Data {
        var output = Data()
        output.reserveCapacity(byteCount + hash.byteCount)
        var counter: UInt32 = 1
        while output.count < byteCount {
            var block = secret
            withUnsafeBytes(of: counter.bigEndian) { block.append(contentsOf: $0) }
            block.append(sharedInfo)
            output.append(hash.digest(block))
            SecretWiping.wipe(&block)
            counter += 1
        }
        let result = Data(output.prefix(byteCount))
        SecretWiping.wipe(&output)
        return result
    }
}
#endif
