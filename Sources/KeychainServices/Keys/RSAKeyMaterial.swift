#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import CryptoExtras
import Foundation
import KeychainCore
import SecureStorageFoundation

/// An RSA public key: its PKCS#1 `RSAPublicKey` DER (Apple's external representation of an
/// RSA public key, and what Apple hashes for `kSecAttrApplicationLabel`) and its size.
struct RSAPublicKeyMaterial: Sendable, Equatable {
    /// DER `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }`.
    let pkcs1: Data
    /// The modulus size in bits (`kSecAttrKeySizeInBits`).
    let bitCount: Int

    /// `kSecAttrKeyTypeRSA` as a number (the constant is the string `"42"`).
    static let keyType: Int64 = 42

    /// The smallest key this platform handles: swift-crypto refuses RSA keys under 1024 bits.
    static let minimumBitCount = 1024
    /// The largest key Apple handles (8192 bits).
    static let maximumBitCount = 8192

    /// The modulus size in bytes: ``SecKeyGetBlockSize(_:)``, and the size of every signature
    /// and ciphertext.
    var modulusByteCount: Int { (bitCount + 7) / 8 }

    /// Reads a DER `RSAPublicKey`.
    /// - Throws: `errSecParam` (-50) when the data is not exactly one PKCS#1 RSA public key or
    ///   the modulus has more than 8192 bits (Apple's limit); `errSecUnimplemented` (-4) for a
    ///   valid key this platform cannot use (under 1024 bits, or a size that is not whole bytes).
    init(pkcs1 der: Data) throws(SecKeyFailure) {
        guard let bits = RSAKeyDER.publicNumbers(pkcs1: der)?.bitCount else {
            throw SecKeyFailure(
                errSecParam,
                "RSA public key creation from data failed: the data is not a DER RSAPublicKey (PKCS#1) of a usable key."
            )
        }
        try Self.checkSize(bits)
        self.init(validPKCS1: der, bitCount: bits)
    }

    /// A key already known to be valid.
    init(validPKCS1 der: Data, bitCount: Int) {
        pkcs1 = der
        self.bitCount = bitCount
    }

    /// Apple's upper limit (`errSecParam`) and this platform's lower one (`errSecUnimplemented`).
    static func checkSize(_ bits: Int) throws(SecKeyFailure) {
        guard bits <= maximumBitCount else {
            throw SecKeyFailure(
                errSecParam,
                "RSA key creation from data failed: the modulus has \(bits) bits; RSA keys have at most \(maximumBitCount)."
            )
        }
        guard bits >= minimumBitCount, bits % 8 == 0 else {
            throw SecKeyFailure(
                errSecUnimplemented,
                "RSA keys of \(bits) bits are not available on this platform; it handles 1024 to 8192 bits in whole bytes (2048, 3072 or 4096 recommended)."
            )
        }
    }

    /// swift-crypto's encryption key, for PKCS#1 v1.5 and OAEP with SHA-1 or SHA-256.
    func encryptionKey() throws(SecKeyFailure) -> _RSA.Encryption.PublicKey {
        do { return try _RSA.Encryption.PublicKey(unsafeDERRepresentation: pkcs1) } catch {
            throw SecKeyFailure(errSecParam, "The RSA public key could not be used for encryption.")
        }
    }

    /// `input^e mod n`; `input` has exactly ``modulusByteCount`` bytes.
    /// - Returns: `nil` when `input` is not smaller than the modulus.
    /// - Throws: `errSecUnimplemented` (-4) when the system's libcrypto, which computes it, is
    ///   not available (``RSAPublicOperation``).
    func publicOperation(_ input: Data) throws(SecKeyFailure) -> Data? {
        guard let numbers = RSAKeyDER.publicNumbers(pkcs1: pkcs1) else { return nil }
        return try RSAPublicOperation.compute(input, numbers)
    }
}

/// An RSA private key, held by swift-crypto (BoringSSL). Neither its description nor `dump(_:)`
/// shows key material.
struct RSAPrivateKeyMaterial: Sendable, CustomStringConvertible, CustomReflectable {
    /// The public half.
    let publicKey: RSAPublicKeyMaterial
    /// The key, as the type whose API exposes the raw private operation (`x^d mod n`, with
    /// BoringSSL's blinding and CRT check); its blind-signing parameters are never used.
    private let rawKey: _RSA.BlindSigning.PrivateKey<SHA384>
    /// The same key for swift-crypto's PKCS#1 v1.5 and OAEP (SHA-1, SHA-256) decryption.
    private let decryptionKey: DecryptionKey

    /// swift-crypto's decryption key, which does not declare `Sendable`: an immutable value
    /// whose BoringSSL key serves concurrent operations (its blinding state is locked).
    private struct DecryptionKey: @unchecked Sendable {
        let key: _RSA.Encryption.PrivateKey
    }

    /// `RSAPrivateKeyMaterial(2048 bits)`: never key material.
    var description: String { "RSAPrivateKeyMaterial(\(publicKey.bitCount) bits)" }

    /// The size only, so `dump(_:)` never prints the key.
    var customMirror: Mirror { Mirror(self, children: ["bits": publicKey.bitCount], displayStyle: .struct) }

    private init(rawKey: _RSA.BlindSigning.PrivateKey<SHA384>) throws(SecKeyFailure) {
        var der = rawKey.derRepresentation  // a private DER this code alone holds: wiped
        defer { _ = SecretWiping.wipe(&der) }
        do {
            decryptionKey = DecryptionKey(key: try _RSA.Encryption.PrivateKey(unsafeDERRepresentation: der))
        } catch {
            throw SecKeyFailure(errSecParam, "RSA private key creation from data failed.")
        }
        self.rawKey = rawKey
        publicKey = RSAPublicKeyMaterial(
            validPKCS1: rawKey.publicKey.pkcs1DERRepresentation, bitCount: rawKey.keySizeInBits)
    }

    /// Generates a key of `bits` bits with public exponent 65537, as Apple does.
    /// - Throws: `errSecParam` (-50) for a size outside Apple's 512…8192;
    ///   `errSecUnimplemented` (-4) for a size Apple accepts that this platform cannot
    ///   generate (under 1024 bits, or not a multiple of 128: BoringSSL's sizes).
    static func generate(bits: Int) throws(SecKeyFailure) -> RSAPrivateKeyMaterial {
        guard (512...RSAPublicKeyMaterial.maximumBitCount).contains(bits) else {
            throw SecKeyFailure(
                errSecParam,
                "kSecAttrKeySizeInBits must be 512 to 8192 for an RSA key, not \(bits) (failed to generate key).")
        }
        guard bits >= RSAPublicKeyMaterial.minimumBitCount, bits % 128 == 0 else {
            throw SecKeyFailure(
                errSecUnimplemented,
                "RSA keys of \(bits) bits cannot be generated on this platform; use 1024 to 8192 bits in steps of 128 (2048, 3072 or 4096 recommended)."
            )
        }
        let key: _RSA.BlindSigning.PrivateKey<SHA384>
        do { key = try _RSA.BlindSigning.PrivateKey(unsafeKeySize: _RSA.Signing.KeySize(bitCount: bits)) } catch {
            throw SecKeyFailure(errSecInternal, "RSA key generation failed.")
        }
        return try RSAPrivateKeyMaterial(rawKey: key)
    }

    /// Reads a DER `RSAPrivateKey` (PKCS#1, two primes).
    /// - Throws: `errSecParam` (-50) when the data is not exactly one consistent PKCS#1 RSA
    ///   private key, or its modulus has more than 8192 bits; `errSecUnimplemented` (-4) for a
    ///   well-formed key this platform cannot use (see ``RSAPublicKeyMaterial/checkSize(_:)``;
    ///   one under 1024 bits is refused so before its numbers are checked, as swift-crypto parses
    ///   no smaller key).
    init(pkcs1 der: Data) throws(SecKeyFailure) {
        let inconsistent = SecKeyFailure(
            errSecParam,
            "RSA private key creation from data failed: the data is not a DER RSAPrivateKey (PKCS#1) of a consistent key."
        )
        guard let bits = RSAKeyDER.privateKeyPublicNumbers(pkcs1: der)?.bitCount else { throw inconsistent }
        if !(RSAPublicKeyMaterial.minimumBitCount...RSAPublicKeyMaterial.maximumBitCount).contains(bits) {
            try RSAPublicKeyMaterial.checkSize(bits)
        }
        // BoringSSL, behind swift-crypto's parser, checks that the numbers belong together.
        let key: _RSA.BlindSigning.PrivateKey<SHA384>
        do { key = try _RSA.BlindSigning.PrivateKey(unsafeDERRepresentation: der) } catch { throw inconsistent }
        try RSAPublicKeyMaterial.checkSize(bits)
        try self.init(rawKey: key)
    }

    /// DER `RSAPrivateKey` (PKCS#1): Apple's external representation of an RSA private key.
    var pkcs1: Data { rawKey.derRepresentation }

    /// `input^d mod n`; `input` has exactly the modulus size.
    /// - Returns: `nil` when `input` is not smaller than the modulus.
    func privateOperation(_ input: Data) -> Data? {
        try? rawKey.blindSignature(for: input).rawRepresentation
    }

    /// PKCS#1 v1.5 or OAEP (SHA-1, SHA-256) decryption by swift-crypto of a ciphertext of the
    /// modulus size. - Returns: `nil` when the padding is wrong.
    func decrypt(_ ciphertext: Data, padding: _RSA.Encryption.Padding) -> Data? {
        try? decryptionKey.key.decrypt(ciphertext, padding: padding)
    }
}
#endif
