#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation

/// Strict reading of PKCS#1 RSA keys (DER `RSAPublicKey` and two-prime `RSAPrivateKey`), with the
/// checks BoringSSL applies to a key it parses: Apple's key import refuses the same inputs.
///
/// The DER must be exactly one SEQUENCE of INTEGERs: definite lengths in their shortest form,
/// INTEGERs non-negative and minimally encoded, nothing before or after. The key must have an
/// odd, positive modulus of 512 to 16384 bits and an odd public exponent of 2 to 33 bits.
/// Whether the private numbers belong together (p·q = n, d, dP, dQ, qInv) is checked by
/// swift-crypto when it parses the key (``RSAPrivateKeyMaterial``).
enum RSAKeyDER {
    /// The modulus and public exponent of a key, unsigned big-endian without leading zeros.
    struct PublicNumbers: Equatable {
        /// n.
        let modulus: [UInt8]
        /// e.
        let exponent: [UInt8]

        /// The size of the modulus in bits.
        var bitCount: Int { RSAKeyDER.bitCount(modulus) }
    }

    /// The numbers of a DER `RSAPublicKey ::= SEQUENCE { modulus, publicExponent }`, or `nil`
    /// when `der` is not exactly one such structure of a usable key.
    static func publicNumbers(pkcs1 der: Data) -> PublicNumbers? {
        guard let integers = integers(in: [UInt8](der)), integers.count == 2 else { return nil }
        return checked(PublicNumbers(modulus: integers[0], exponent: integers[1]))
    }

    /// The numbers of a DER two-prime `RSAPrivateKey` (version 0, then n, e, d, p, q, dP, dQ,
    /// qInv), or `nil` when `der` is not exactly one such structure or its public half is not a
    /// usable key. The private numbers are not read beyond their encoding.
    static func privateKeyPublicNumbers(pkcs1 der: Data) -> PublicNumbers? {
        guard let integers = integers(in: [UInt8](der)), integers.count == 9, integers[0].isEmpty else { return nil }
        return checked(PublicNumbers(modulus: integers[1], exponent: integers[2]))
    }

    /// `numbers` when BoringSSL would accept them as a public key: n odd, 512 to 16384 bits; e odd,
    /// 2 to 33 bits (so n > e).
    private static func checked(_ numbers: PublicNumbers) -> PublicNumbers? {
        let modulusBits = bitCount(numbers.modulus)
        let exponentBits = bitCount(numbers.exponent)
        guard (512...16384).contains(modulusBits), numbers.modulus.last.map({ $0 & 1 == 1 }) == true,
            (2...33).contains(exponentBits), numbers.exponent.last.map({ $0 & 1 == 1 }) == true
        else { return nil }
        return numbers
    }

    /// The number of significant bits of an unsigned big-endian number without leading zeros.
    static func bitCount(_ magnitude: [UInt8]) -> Int {
        guard let first = magnitude.first else { return 0 }
        return (magnitude.count - 1) * 8 + (8 - first.leadingZeroBitCount)
    }

    /// The magnitudes of the INTEGERs that make up `bytes`, when it is exactly one DER SEQUENCE
    /// of non-negative, minimally encoded INTEGERs (zero is an empty magnitude); otherwise `nil`.
    private static func integers(in bytes: [UInt8]) -> [[UInt8]]? {
        guard let sequence = element(in: bytes, at: 0), sequence.tag == 0x30, sequence.content.upperBound == bytes.count
        else { return nil }
        var result: [[UInt8]] = []
        var offset = sequence.content.lowerBound
        while offset < sequence.content.upperBound {
            guard let integer = element(in: bytes, at: offset, end: sequence.content.upperBound), integer.tag == 0x02
            else { return nil }
            let content = bytes[integer.content]
            guard let first = content.first, first & 0x80 == 0 else { return nil }  // empty or negative
            if first == 0, content.count > 1 {
                guard content[content.startIndex + 1] & 0x80 != 0 else { return nil }  // a needless leading zero
                result.append(Array(content.dropFirst()))
            } else {
                result.append(first == 0 ? [] : Array(content))
            }
            offset = integer.content.upperBound
        }
        return result
    }

    /// The tag and content range of the DER element starting at `offset`, which must end by
    /// `end`: a low tag number, and a definite length in its shortest form.
    private static func element(in bytes: [UInt8], at offset: Int, end: Int? = nil) -> (
        tag: UInt8, content: Range<Int>
    )? {
        let end = end ?? bytes.count
        guard offset + 2 <= end else { return nil }
        let tag = bytes[offset]
        guard tag & 0x1F != 0x1F else { return nil }
        var index = offset + 2
        var length = Int(bytes[offset + 1])
        if length >= 0x80 {
            let lengthBytes = length & 0x7F
            // 0x80 is the indefinite form; a length needs at most 4 bytes here, without a leading zero.
            guard (1...4).contains(lengthBytes), index + lengthBytes <= end, bytes[index] != 0 else { return nil }
            length = bytes[index..<index + lengthBytes].reduce(0) { $0 << 8 | Int($1) }
            index += lengthBytes
            guard length >= 0x80 else { return nil }  // the short form would do
        }
        guard length <= end - index else { return nil }
        return (tag, index..<index + length)
    }
}
#endif
