import Foundation

/// Overwrites secret bytes in memory once this code is done with them.
///
/// Keys never need it: they live in swift-crypto's `SymmetricKey`, whose storage is zeroed when
/// freed. Plaintext passes through ordinary buffers, and those this code owns alone are wiped:
/// padded plaintexts and decrypted rows, KDF inputs, unlock tickets, the backup root key and
/// chunk buffers, the device key file's bytes, the CLI's read buffer. The zeroing uses `explicit_bzero` (`memset_s` on Apple), which the optimiser may not
/// drop. Swift cannot promise more: strings are immutable, copy-on-write buffers may have been
/// copied, and values returned to the caller are the caller's to drop. Those limits are stated
/// in README "Guarantees".
package enum SecretWiping {
    /// Zeroes every byte of `data` (its count is unchanged).
    ///
    /// - Returns: whether the bytes were zeroed where they were. `false` means the buffer was
    ///   shared (another `Data` or a slice refers to it), so copy-on-write zeroed a fresh copy and
    ///   the shared original still holds the secret: a bug in the caller, which tests catch.
    @discardableResult
    package static func wipe(_ data: inout Data) -> Bool {
        guard !data.isEmpty else { return true }
        // Up to 14 bytes live inline in the Data value itself, with no buffer to share.
        let before = data.count > 14 ? data.withUnsafeBytes { $0.baseAddress } : nil
        let after = data.withUnsafeMutableBytes { buffer -> UnsafeRawPointer? in
            zero(buffer)
            return buffer.baseAddress.map(UnsafeRawPointer.init)
        }
        return before == nil || before == after
    }

    /// Zeroes every byte of `bytes`; returns whether it was done in place (see the `Data` overload).
    @discardableResult
    package static func wipe(_ bytes: inout [UInt8]) -> Bool {
        let before = bytes.withUnsafeBytes { $0.baseAddress }
        let after = bytes.withUnsafeMutableBytes { buffer -> UnsafeRawPointer? in
            zero(buffer)
            return buffer.baseAddress.map(UnsafeRawPointer.init)
        }
        return before == after
    }

    /// Zeroes the bytes of a plain C structure that held a secret (a TPM's sensitive area or
    /// authorisation value), in place: such a value owns no buffer, so there is nothing to share.
    package static func wipe<Value: BitwiseCopyable>(bytesOf value: inout Value) {
        withUnsafeMutableBytes(of: &value) { zero($0) }
    }

    private static func zero(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        #if canImport(Darwin)
        _ = memset_s(base, buffer.count, 0, buffer.count)
        #elseif canImport(Glibc) || canImport(Musl)
        explicit_bzero(base, buffer.count)
        #else
        // No guaranteed-not-elided zeroing in this libc: a store the optimiser sees escape.
        memset(base, 0, buffer.count)
        withExtendedLifetime(buffer) {}
        #endif
    }
}
