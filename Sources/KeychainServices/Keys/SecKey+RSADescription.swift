#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import CryptoExtras
import Foundation

extension SecKey {
    /// Apple's description of an RSA key: `<SecKeyRef algorithm id: 1, key type: RSAPublicKey,
    /// version: 4, 2048 bits (block size: 256), exponent: {hex: 10001, decimal: 65537},
    /// modulus: …, addr: 0x…>` for a public key; a private key shows its size only, never key
    /// material.
    func rsaDescription(address: String) -> String {
        guard let rsa = rsaPublicMaterial else { return "<SecKeyRef addr: \(address)>" }
        let size = "\(rsa.bitCount) bits (block size: \(rsa.modulusByteCount))"
        guard !isPrivate else {
            return "<SecKeyRef algorithm id: 1, key type: RSAPrivateKey, version: 4, \(size), addr: \(address)>"
        }
        let (modulus, exponent) = RSAPublicKeyMaterial.components(of: rsa.pkcs1) ?? (Data(), Data())
        let exponentValue = exponent.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let hex = modulus.map { String(format: "%02X", $0) }.joined()
        return
            "<SecKeyRef algorithm id: 1, key type: RSAPublicKey, version: 4, \(size), exponent: {hex: \(String(exponentValue, radix: 16)), decimal: \(exponentValue)}, modulus: \(hex), addr: \(address)>"
    }
}

extension RSAPublicKeyMaterial {
    /// The modulus and public exponent (big-endian, without leading zeros), read by swift-crypto.
    static func components(of der: Data) -> (modulus: Data, exponent: Data)? {
        guard let primitives = try? _RSA.Signing.PublicKey(unsafeDERRepresentation: der).getKeyPrimitives() else {
            return nil
        }
        return (Data(primitives.modulus.drop { $0 == 0 }), Data(primitives.publicExponent.drop { $0 == 0 }))
    }
}
#endif
