#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import CSystemLibcrypto
import Foundation

/// The bare RSA public operation `x^e mod n`, which swift-crypto's public `_RSA` API does not
/// offer (it pads and hashes for itself), computed by the system's OpenSSL 3 libcrypto
/// (CSystemLibcrypto's csystemrsa.c; Debian: libssl3).
///
/// Apple's digest, SHA-224, raw-signature, raw-encryption and OAEP-SHA-224/384/512 algorithms
/// need it; everything else goes through `_RSA`.
enum RSAPublicOperation {
    /// `input^e mod n` for the key `numbers`, as many bytes as the modulus. `input` must have
    /// exactly that many bytes.
    ///
    /// - Returns: `nil` when `input` is not smaller than the modulus.
    /// - Throws: `errSecUnimplemented` (-4) when the system's libcrypto is not available.
    static func compute(_ input: Data, _ numbers: RSAKeyDER.PublicNumbers) throws(SecKeyFailure) -> Data? {
        guard csystemrsa_available() == 1 else {
            throw SecKeyFailure(
                errSecUnimplemented,
                "The raw RSA public operation needs the system's OpenSSL 3 libcrypto (Debian: libssl3), which is not usable here: \(String(cString: csystemrsa_description()))."
            )
        }
        let size = numbers.modulus.count
        guard input.count == size else { return nil }
        var output = Data(count: size)
        let computed = output.withUnsafeMutableBytes { out in
            input.withUnsafeBytes { source in
                csystemrsa_public_operation(
                    numbers.modulus, numbers.modulus.count, numbers.exponent, numbers.exponent.count,
                    source.bindMemory(to: UInt8.self).baseAddress, source.count,
                    out.bindMemory(to: UInt8.self).baseAddress)
            }
        }
        guard computed == 1 else { return nil }
        return output
    }
}
#endif
