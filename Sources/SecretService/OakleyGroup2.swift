import CSystemLibcrypto
import Crypto
import Foundation

/// Diffie-Hellman in the second Oakley group (RFC 2409 §6.2: the 1024-bit MODP prime, generator
/// 2), the group of the Secret Service's `dh-ietf1024-sha256-aes128-cbc-pkcs7` algorithm.
///
/// The modular exponentiation is the system libcrypto's `BN_mod_exp_mont` (through
/// `CSystemLibcrypto`, loaded and self-checked on first use); it is not constant-time. That fits
/// the algorithm's use here: each key pair is fresh per session and lives only as long as the
/// call that opens it, so a timing side channel would have to be measured across a single
/// exponentiation by a local process, which could read the agent's memory only as root anyway.
enum OakleyGroup2 {
    /// The prime, big-endian, 128 bytes.
    static let prime: [UInt8] = hexBytes(
        "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
            + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
            + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF")

    /// The size of the prime and of every public key and shared secret this type returns.
    static let byteCount = 128

    /// Whether the system libcrypto is available for the exponentiation.
    static var isAvailable: Bool { csystemrsa_available() == 1 }

    /// `base^exponent mod p`, left-padded to 128 bytes; `nil` when libcrypto is unavailable.
    static func power(_ base: [UInt8], _ exponent: [UInt8]) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: byteCount)
        let status = prime.withUnsafeBufferPointer { modulus in
            exponent.withUnsafeBufferPointer { exponentBytes in
                base.withUnsafeBufferPointer { input in
                    out.withUnsafeMutableBufferPointer { result in
                        csystemrsa_public_operation(
                            modulus.baseAddress, modulus.count, exponentBytes.baseAddress, exponentBytes.count,
                            input.baseAddress, input.count, result.baseAddress)
                    }
                }
            }
        }
        return status == 1 ? out : nil
    }

    /// Whether a peer's public key is an element worth agreeing with: strictly between 1 and p−1
    /// (0, 1 and p−1 would make the shared secret predictable; p and above are not elements).
    static func isAcceptablePublicKey(_ key: [UInt8]) -> Bool {
        let value = Array(key.drop { $0 == 0 })
        let primeMinusOne = prime.dropLast() + [prime[prime.count - 1] - 1]
        return compare(value, [1]) > 0 && compare(value, Array(primeMinusOne)) < 0
    }

    /// Compares two big-endian numbers without leading zeros.
    private static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        if lhs.count != rhs.count { return lhs.count < rhs.count ? -1 : 1 }
        for (left, right) in zip(lhs, rhs) where left != right { return left < right ? -1 : 1 }
        return 0
    }

    private static func hexBytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(UInt8(nibble(high) << 4 | nibble(low)))
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8 {
        character <= 0x39 ? character - 0x30 : (character | 0x20) - 0x61 + 10
    }
}
