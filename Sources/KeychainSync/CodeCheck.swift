import Crypto
import Foundation

/// The check group that ends every circle code and approval code, so that a typo is refused on
/// the device it was typed on, before anything is sent to the server.
///
/// A code is a string of base32 characters, each a value 0–31. Four characters follow the code's
/// own (one group of four, so a code stays whole groups):
/// - three characters of SHA-256 over the kind of code and its characters (15 bits), and
/// - one **check character** over everything before it: the characters are the coefficients of
///   a polynomial over GF(32) (modulus x⁵ + x² + 1), evaluated at x, and the check character
///   makes the value zero. Folding left to right, `v ← x·v + c`, is the Damm algorithm with the
///   totally anti-symmetric quasigroup `a ∗ b = x·a + b`.
///
/// What that guarantees, whatever the code: a **single substituted character** changes the value
/// by `e·xᵏ ≠ 0`; **two swapped characters** `d` places apart change it by
/// `(a − b)·xᵏ·(xᵈ − 1)`, not zero while `d < 31` (x has order 31), so every adjacent and jump
/// transposition is caught, in the check group too. Any other typo (two substitutions, say) is
/// caught but for a chance of 1 in 2²⁰ (the check character and the 15 hash bits). A check
/// character alone would miss such a typo once in 32; a truncated hash alone (a checksum of one
/// character) would miss even a single substitution once in 32. A missed typo in a circle code
/// would let a device be admitted and then report the server as tampering.
enum CodeCheck {
    /// Which code the characters are: the hash differs, so neither passes for the other.
    enum Kind: String {
        case circle, approval
    }

    /// How many characters the check group adds.
    static let length = 4

    /// `values` (each 0–31) followed by their check group.
    static func appending(to values: [UInt8], kind: Kind) -> [UInt8] {
        let hashed = values + hashCharacters(values, kind: kind)
        return hashed + [times2(fold(hashed))]
    }

    /// Whether `values` end in the check group of the characters before it.
    static func isIntact(_ values: [UInt8], kind: Kind) -> Bool {
        values.count > length && values == appending(to: Array(values.dropLast(length)), kind: kind)
    }

    /// `v ← x·v + c` over the characters, in GF(32).
    private static func fold(_ values: [UInt8]) -> UInt8 {
        values.reduce(0) { times2($0) ^ $1 }
    }

    /// `x·v` in GF(32) = GF(2)[x] / (x⁵ + x² + 1).
    private static func times2(_ value: UInt8) -> UInt8 {
        let shifted = value << 1
        return shifted & 0x20 != 0 ? shifted ^ 0x25 : shifted
    }

    /// 15 bits of SHA-256 over the kind and the characters, as three characters.
    private static func hashCharacters(_ values: [UInt8], kind: Kind) -> [UInt8] {
        let digest = Array(SHA256.hash(data: Data("keychain-sync code check \(kind.rawValue)\0".utf8) + Data(values)))
        let bits = (Int(digest[0]) << 7 | Int(digest[1]) >> 1) & 0x7FFF
        return [UInt8(bits >> 10), UInt8(bits >> 5 & 31), UInt8(bits & 31)]
    }
}
