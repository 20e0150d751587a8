import SecureStorageFoundation

/// The operating system's cryptographically secure random bytes, up to 256 per system call.
///
/// Swift's `SystemRandomNumberGenerator`, which swift-crypto's `SymmetricKey(size:)` and
/// `AES.GCM.Nonce()` draw from, makes one `getrandom` call per 8 bytes: fourteen calls for the
/// keys, nonces and identifier of one item. This fills a buffer with `getentropy(3)` (one
/// `getrandom(2)` call on Linux, the kernel's generator on Darwin), 256 bytes at a time.
package enum SystemRandom {
    /// Fills `buffer` with random bytes.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        var filled = 0
        while filled < buffer.count {
            let count = min(256, buffer.count - filled)
            if getentropy(base + filled, count) == 0 {
                filled += count
            } else {
                // getentropy is missing (a C library older than glibc 2.25) or failed: the
                // standard library's generator, which traps rather than return predictable bytes.
                var generator = SystemRandomNumberGenerator()
                for index in filled..<buffer.count { buffer[index] = generator.next() }
                return
            }
        }
    }
}
