#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
#if canImport(CCryptoBoringSSL)
import CCryptoBoringSSL
#endif
import Foundation

/// The RSA primitives swift-crypto's `_RSA` API does not offer, taken from the BoringSSL copy
/// that swift-crypto builds (module `CCryptoBoringSSL`, a dependency of its `CryptoExtras`
/// product): strict PKCS#1 parsing and the raw public-key operation `x^e mod n`.
///
/// `_RSA` verifies signatures only for digests it computed itself with SHA-1/256/384/512 and
/// has no raw public operation, which Apple's digest, SHA-224, raw-signature, raw-encryption
/// and OAEP-SHA-224/384/512 algorithms need. Everything else goes through `_RSA`. This file
/// is the only one that touches the C module; the arithmetic stays in BoringSSL.
enum RSABoringSSL {
    /// Whether the module is linked into this build (it is wherever swift-crypto uses BoringSSL).
    static var isAvailable: Bool {
        #if canImport(CCryptoBoringSSL)
        true
        #else
        false
        #endif
    }

    /// The modulus size in bits of a DER `RSAPublicKey` (PKCS#1), or `nil` when `der` is not
    /// exactly one such structure of a key BoringSSL accepts (odd modulus of 512 to 16384 bits,
    /// odd public exponent of at most 33 bits).
    static func publicKeyBitCount(pkcs1 der: Data) -> Int? {
        #if canImport(CCryptoBoringSSL)
        withKey(der, isPrivate: false) { Int(CCryptoBoringSSL_RSA_bits($0)) }
        #else
        return nil
        #endif
    }

    /// The modulus size in bits of a DER `RSAPrivateKey` (PKCS#1, two primes), or `nil` when
    /// `der` is not exactly one such structure of a consistent key (BoringSSL checks that the
    /// primes, exponents and coefficient belong together).
    static func privateKeyBitCount(pkcs1 der: Data) -> Int? {
        #if canImport(CCryptoBoringSSL)
        withKey(der, isPrivate: true) { Int(CCryptoBoringSSL_RSA_bits($0)) }
        #else
        return nil
        #endif
    }

    /// `input^e mod n` for the public key `pkcs1` (DER `RSAPublicKey`), as many bytes as the
    /// modulus. `input` must have exactly that many bytes.
    ///
    /// - Returns: `nil` when `input` is not smaller than the modulus (or the key is unusable).
    static func publicOperation(_ input: Data, pkcs1: Data) -> Data? {
        #if canImport(CCryptoBoringSSL)
        withKey(pkcs1, isPrivate: false) { key -> Data? in
            let size = Int(CCryptoBoringSSL_RSA_size(key))
            guard input.count == size else { return nil }
            var output = Data(count: size)
            var written = 0
            let status = output.withUnsafeMutableBytes { out in
                input.withUnsafeBytes { source in
                    CCryptoBoringSSL_RSA_verify_raw(key, &written, out.bindMemory(to: UInt8.self).baseAddress, out.count,
                                                    source.bindMemory(to: UInt8.self).baseAddress, source.count, RSA_NO_PADDING)
                }
            }
            CCryptoBoringSSL_ERR_clear_error()
            guard status == 1, written == size else { return nil }
            return output
        }
        #else
        return nil
        #endif
    }

    #if canImport(CCryptoBoringSSL)
    /// Runs `body` with the BoringSSL key parsed from the PKCS#1 DER `der`, freed afterwards;
    /// `nil` when `der` is not exactly one such key.
    private static func withKey<Value>(_ der: Data, isPrivate: Bool, _ body: (OpaquePointer) -> Value?) -> Value? {
        let key = der.withUnsafeBytes { bytes -> OpaquePointer? in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return nil }
            return isPrivate ? CCryptoBoringSSL_RSA_private_key_from_bytes(base, bytes.count)
                : CCryptoBoringSSL_RSA_public_key_from_bytes(base, bytes.count)
        }
        guard let key else { return nil }
        defer { CCryptoBoringSSL_RSA_free(key) }
        return body(key)
    }
    #endif
}
#endif
