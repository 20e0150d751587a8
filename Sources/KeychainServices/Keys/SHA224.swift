#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation

/// SHA-224 (FIPS 180-4 §6.3): SHA-256's compression with its own initial value, cut to 28
/// bytes. swift-crypto has no SHA-224, and Apple's SecKey algorithms name it
/// (`ecdsaSignatureMessageX962SHA224`, `ecdhKeyExchangeStandardX963SHA224`, ECIES SHA-224).
/// Used only for those algorithms' message digests and KDF blocks, never for anything new.
struct SHA224 {
    /// The digest size in bytes.
    static let byteCount = 28

    private var state: [UInt32] = [
        0xc105_9ed8, 0x367c_d507, 0x3070_dd17, 0xf70e_5939,
        0xffc0_0b31, 0x6858_1511, 0x64f9_8fa7, 0xbefa_4fa4
    ]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    /// Adds `data` to the message.
    mutating func update<Bytes: Sequence>(_ data: Bytes) where Bytes.Element == UInt8 {
        pending.append(contentsOf: data)
        var consumed = 0
        while pending.count - consumed >= 64 {
            compress(pending[consumed..<consumed + 64])
            consumed += 64
        }
        length &+= UInt64(consumed) * 8
        pending.removeFirst(consumed)
    }

    /// The 28-byte digest of everything added.
    func finalize() -> Data {
        var copy = self
        let bitLength = length &+ UInt64(pending.count) * 8
        var tail: [UInt8] = [0x80] + [UInt8](repeating: 0, count: (119 - pending.count) % 64)
        tail += withUnsafeBytes(of: bitLength.bigEndian, Array.init)
        copy.pending += tail
        var offset = 0
        while offset < copy.pending.count {
            copy.compress(copy.pending[offset..<offset + 64])
            offset += 64
        }
        var digest = Data(capacity: 32)
        for word in copy.state { withUnsafeBytes(of: word.bigEndian) { digest.append(contentsOf: $0) } }
        return digest.prefix(Self.byteCount)
    }

    /// The digest of `message`.
    static func hash(_ message: Data) -> Data {
        var hasher = SHA224()
        hasher.update(message)
        return hasher.finalize()
    }

    private mutating func compress(_ block: ArraySlice<UInt8>) {
        var w = [UInt32](repeating: 0, count: 64)
        let base = block.startIndex
        for t in 0..<16 {
            w[t] = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(block[base + 4 * t + $1]) }
        }
        for t in 16..<64 {
            let s0 = w[t - 15].rotatedRight(7) ^ w[t - 15].rotatedRight(18) ^ (w[t - 15] >> 3)
            let s1 = w[t - 2].rotatedRight(17) ^ w[t - 2].rotatedRight(19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for t in 0..<64 {
            let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let temp1 = h &+ sum1 &+ choice &+ Self.roundConstants[t] &+ w[t]
            let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temp2 = sum0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
        }
        for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] &+= value }
    }

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
    ]
}

private extension UInt32 {
    func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
#endif
