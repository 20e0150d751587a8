#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation

extension SecKey {
    /// The bare RSA operation of this key on `input`: `x^d mod n` for a private key, `x^e mod n`
    /// for a public one, as Apple's RSA keys perform their raw operation. `input` may be
    /// shorter than the modulus (it is a big-endian number and is left-padded with zeros).
    ///
    /// - Throws: `errSecParam` (-50) when `input` is longer than the modulus ("input buffer bad
    ///   size", as Apple's key).
    /// - Returns: the modulus-sized result, or `nil` when `input` is not smaller than the modulus.
    func rsaRawOperation(_ input: Data, _ rsa: RSAPublicKeyMaterial) throws(SecKeyFailure) -> Data? {
        let padded = try Self.leftPadded(input, to: rsa.modulusByteCount)
        switch kind {
        case .rsaPrivate(let material): return material.privateOperation(padded)
        default: return try rsa.publicOperation(padded)
        }
    }

    /// `input` left-padded with zeros to `length` bytes.
    /// - Throws: `errSecParam` when it is longer.
    static func leftPadded(_ input: Data, to length: Int) throws(SecKeyFailure) -> Data {
        guard input.count <= length else {
            throw SecKeyFailure(
                errSecParam, "RSA input buffer bad size: \(input.count) bytes for a \(length)-byte modulus.")
        }
        return Data(count: length - input.count) + input
    }
}
#endif
