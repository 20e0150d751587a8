#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// The SecKey API over the portable engine: on Apple platforms only in a SECURE_STORAGE_FORCE_PORTABLE build.
import Foundation
import KeychainServices

/// RSA software keys: generation, PKCS#1 v1.5 and PSS signatures, OAEP through swift-crypto
/// (SHA-256) and through this library's own encoding around the raw RSA operations (SHA-384).
extension KeyBenchmarks {
    static func rsa(samples: Int) throws -> [Measurement] {
        var results: [Measurement] = []
        let message = Data(repeating: 0x42, count: 256)
        let secret = Data(repeating: 0x17, count: 32)
        for bits in [2048, 3072] {
            var generate = Measurement("SecKeyCreateRandomKey, RSA-\(bits)")
            let key = try generate.time {
                try unwrap {
                    SecKeyCreateRandomKey(
                        [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: bits]
                            as CFDictionary, $0)
                }
            }
            let publicKey = try unwrap { _ in SecKeyCopyPublicKey(key) }
            results.append(generate)
            for (label, algorithm) in [
                ("PKCS#1 v1.5 SHA-256", SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA256),
                ("PSS SHA-256", .rsaSignatureMessagePSSSHA256)
            ] {
                var sign = Measurement("SecKeyCreateSignature, RSA-\(bits) \(label), 256 B")
                var verify = Measurement("SecKeyVerifySignature, RSA-\(bits) \(label)")
                for _ in 0..<min(samples, 500) {
                    let signature = try sign.time {
                        try unwrap { SecKeyCreateSignature(key, algorithm, message as CFData, $0) }
                    }
                    guard
                        verify.time({ SecKeyVerifySignature(publicKey, algorithm, message as CFData, signature, nil) })
                    else {
                        throw Failed(message: "an RSA signature did not verify")
                    }
                }
                results += [sign, verify]
            }
            for (label, algorithm) in [
                ("OAEP SHA-256", SecKeyAlgorithm.rsaEncryptionOAEPSHA256), ("OAEP SHA-384", .rsaEncryptionOAEPSHA384)
            ] {
                var encrypt = Measurement("SecKeyCreateEncryptedData, RSA-\(bits) \(label), 32 B")
                var decrypt = Measurement("SecKeyCreateDecryptedData, RSA-\(bits) \(label), 32 B")
                for _ in 0..<min(samples, 500) {
                    let sealed = try encrypt.time {
                        try unwrap { SecKeyCreateEncryptedData(publicKey, algorithm, secret as CFData, $0) }
                    }
                    _ = try decrypt.time { try unwrap { SecKeyCreateDecryptedData(key, algorithm, sealed, $0) } }
                }
                results += [encrypt, decrypt]
            }
        }
        return results
    }
}
#endif
