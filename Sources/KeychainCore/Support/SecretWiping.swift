#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Overwrites secret bytes in memory once this code is done with them.
///
/// Keys never need it: they live in swift-crypto's `SymmetricKey`, whose storage is zeroed when
/// freed. Plaintext passes through ordinary buffers, and those this code owns alone are wiped:
/// decrypted rows and their padding, KDF inputs, unlock tickets, backup chunks, the CLI's input
/// buffers. The zeroing uses `explicit_bzero` (`memset_s` on Apple), which the optimiser may not
/// drop. Swift cannot promise more: strings are immutable, copy-on-write buffers may have been
/// copied, and values returned to the caller are the caller's to drop. Those limits are stated
/// in README "Guarantees".
public enum SecretWiping {
    /// Zeroes every byte of `data` in place (its count is unchanged).
    public static func wipe(_ data: inout Data) {
        guard !data.isEmpty else { return }
        data.withUnsafeMutableBytes { zero($0) }
    }

    /// Zeroes every byte of `bytes` in place.
    public static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { zero($0) }
    }

    private static func zero(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        #if canImport(Darwin)
        _ = memset_s(base, buffer.count, 0, buffer.count)
        #else
        explicit_bzero(base, buffer.count)
        #endif
    }
}
