#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation

/// RSA signatures as Apple's SecKey makes and checks them (its algorithm adaptors over the
/// key's raw operation): EMSA-PKCS1-v1_5 with or without a DigestInfo, EMSA-PSS with MGF1 of
/// the same hash and a digest-sized salt, and the raw operation.
extension SecKey {
    /// A signature of `data` by this RSA private key, the modulus size.
    ///
    /// - Throws: `errSecParam` (-50) when the key cannot perform the algorithm, a PSS digest
    ///   has the wrong size, the PKCS#1 v1.5 input does not fit the modulus ("RSAsign wrong
    ///   input data length"), or raw input is longer than or not smaller than the modulus.
    func rsaSignature(_ algorithm: SecKeyAlgorithm, _ data: Data) throws(SecKeyFailure) -> Data {
        guard let rsa = rsaPublicMaterial else {
            throw SecKeyFailure(errSecParam, "\(algorithm.name): algorithm not supported by the key \(self).")
        }
        let encoded: Data
        switch try rsaAlgorithm(algorithm, for: .sign) {
        case .rawSignature:
            guard let signature = try rsaRawOperation(data, rsa) else {
                throw SecKeyFailure(
                    errSecParam, "\(self): sign - digest too big (\(data.count) bytes): not smaller than the modulus.")
            }
            return signature
        case .pkcs1v15Signature(let input):
            guard
                let padded = RSAPadding.emsaPKCS1v15(
                    digest: input.map { $0.digest(of: data) } ?? data, hash: input?.hash,
                    length: rsa.modulusByteCount)
            else {
                throw SecKeyFailure(
                    errSecParam,
                    "RSAsign wrong input data length: \(data.count) bytes do not fit a \(rsa.bitCount)-bit key.")
            }
            encoded = padded
        case .pssSignature(let input):
            let hash = input.hash
            guard
                let padded = RSAPadding.emsaPSS(
                    digest: input.digest(of: data), hash: hash, salt: RSAPadding.randomBytes(hash.byteCount),
                    modulusBits: rsa.bitCount)
            else {
                throw SecKeyFailure(
                    errSecParam,
                    "RSASSA-PSS incompatible algorithm for key size: \(algorithm.name) signs a \(hash.byteCount)-byte digest, not \(data.count) bytes."
                )
            }
            encoded = padded
        default:
            throw SecKeyFailure(errSecParam, "\(algorithm.name): algorithm not supported by the key \(self).")
        }
        guard let signature = try rsaRawOperation(encoded, rsa) else {
            throw SecKeyFailure(errSecInternal, "The RSA private operation failed.")
        }
        return signature
    }

    /// Checks an RSA signature of `data` with this key.
    ///
    /// - Throws: `errSecVerifyFailed` (-67808) when the signature does not match (as Apple, a
    ///   digest of the wrong size simply does not match), including a signature shorter than the
    ///   modulus (RFC 8017 requires exactly its length, so one signature has one byte string);
    ///   `errSecParam` (-50) when the key cannot perform the algorithm (a private key among
    ///   them) or the signature is longer than the modulus.
    func rsaVerify(_ algorithm: SecKeyAlgorithm, _ data: Data, _ signature: Data) throws(SecKeyFailure) {
        guard let rsa = rsaPublicMaterial else {
            throw SecKeyFailure(errSecParam, "\(algorithm.name): algorithm not supported by the key \(self).")
        }
        let meaning = try rsaAlgorithm(algorithm, for: .verify)
        let noMatch = SecKeyFailure(errSecVerifyFailed, "RSA signature verification failed, no match.")
        // Shorter than the modulus never matches (longer is a parameter error, from the raw operation).
        guard signature.count >= rsa.modulusByteCount else { throw noMatch }
        let recovered = try rsaRawOperation(signature, rsa)
        let matches: Bool
        switch (meaning, recovered) {
        case (_, nil):
            matches = false
        case (.rawSignature, let recovered?):
            // Zero, whose signature is zero for every key, signs nothing.
            let value = Data(recovered.drop { $0 == 0 })
            matches = !value.isEmpty && value == data
        case (.pkcs1v15Signature(let input), let recovered?):
            let expected = RSAPadding.emsaPKCS1v15(
                digest: input.map { $0.digest(of: data) } ?? data, hash: input?.hash,
                length: rsa.modulusByteCount)
            matches = expected == recovered
        case (.pssSignature(let input), let recovered?):
            matches = RSAPadding.isPSSEncoding(
                recovered, of: input.digest(of: data), hash: input.hash, modulusBits: rsa.bitCount)
        default:
            matches = false
        }
        guard matches else { throw noMatch }
    }
}

extension RSAAlgorithm.Input {
    /// The digest to sign: the message's hash, or the caller's bytes as they are.
    func digest(of data: Data) -> Data {
        switch self {
        case .message(let hash): hash.digest(data)
        case .digest: data
        }
    }
}
#endif
