#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// The SecItem API over the portable engine: on Apple platforms only in a SECURE_STORAGE_FORCE_PORTABLE build.
import Foundation
import KeychainCore
import KeychainServices

/// SecKey operations: a key generated inside the keychain (the Secure Enclave stand-in) against a
/// software key, for signing, verifying, ECIES and ECDH, and a PIN authentication's cost.
enum KeyBenchmarks {
    static func run(samples: Int, in directory: URL) throws -> [Measurement] {
        let location = KeychainLocation(directory: directory.appendingPathComponent("keys"))
        let keychain = try Keychain(location: location)
        SecItemEnvironment.useKeychain(keychain)
        SecItemEnvironment.applicationIdentity = ApplicationIdentity(applicationIdentifier: "BENCH.keys")
        defer { SecItemEnvironment.reset() }

        var results: [Measurement] = []
        let message = Data(repeating: 0x42, count: 256)
        var create = Measurement("SecKeyCreateRandomKey, token P-256 (stored)")
        var tokenKeys: [SecKey] = []
        for index in 0..<min(samples, 200) {
            let parameters: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecPrivateKeyAttrs as String: [
                    kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data("bench-\(index)".utf8)
                ]
            ]
            tokenKeys.append(try create.time { try unwrap { SecKeyCreateRandomKey(parameters as CFDictionary, $0) } })
        }
        results.append(create)
        let software = try unwrap {
            SecKeyCreateRandomKey(
                [
                    kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                    kSecAttrKeySizeInBits as String: 256
                ] as CFDictionary, $0)
        }
        for (name, key) in [("token", tokenKeys[0]), ("software", software)] {
            let publicKey = try unwrap { _ in SecKeyCopyPublicKey(key) }
            var sign = Measurement("SecKeyCreateSignature, \(name) P-256, 256 B message")
            var verify = Measurement("SecKeyVerifySignature, \(name) P-256")
            var encrypt = Measurement("SecKeyCreateEncryptedData, ECIES P-256, 256 B")
            var decrypt = Measurement("SecKeyCreateDecryptedData, \(name) P-256, 256 B")
            for _ in 0..<samples {
                let signature = try sign.time {
                    try unwrap { SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message as CFData, $0) }
                }
                _ = verify.time {
                    SecKeyVerifySignature(
                        publicKey, .ecdsaSignatureMessageX962SHA256, message as CFData, signature, nil)
                }
                let sealed = try encrypt.time {
                    try unwrap {
                        SecKeyCreateEncryptedData(
                            publicKey, .eciesEncryptionStandardVariableIVX963SHA256AESGCM, message as CFData, $0)
                    }
                }
                _ = try decrypt.time {
                    try unwrap {
                        SecKeyCreateDecryptedData(key, .eciesEncryptionStandardVariableIVX963SHA256AESGCM, sealed, $0)
                    }
                }
            }
            results += name == "token" ? [sign, verify, decrypt] : [sign, verify, encrypt, decrypt]
        }

        let pin = try PINAuthenticator(keychain: location) { _ in "482916" }
        try pin.setPIN("482916", in: keychain)
        var authenticate = Measurement("PINAuthenticator.verify (scrypt N=2^17, r=8)")
        for _ in 0..<3 { _ = try authenticate.time { try pin.verify("482916") } }
        results.append(authenticate)

        // Protected items: sealed to the presence key on add (X25519 + AES-KW), opened with the
        // presence key a reused authentication holds (X25519 + AES-KW), against a plain item.
        keychain.authenticator = pin
        let policy = try AccessPolicy(flags: [.userPresence])
        var addProtected = Measurement("add, userPresence item (sealed to the presence key)")
        var addPlain = Measurement("add, plain item")
        for index in 0..<samples {
            let secret = Data("secret-\(index)".utf8)
            _ = try addProtected.time {
                try keychain.add(
                    NewItem(
                        .genericPassword, attributes: [.service: "protected", .account: .string("a\(index)")],
                        data: secret
                    ).protected(by: policy))
            }
            _ = try addPlain.time {
                try keychain.add(
                    NewItem(
                        .genericPassword, attributes: [.service: "plain", .account: .string("a\(index)")], data: secret)
                )
            }
        }
        var options = AuthenticationOptions(context: AuthenticationContext(reuseDuration: 300))
        options.reason = "benchmark"
        var warm = Query(.genericPassword, [.service: "protected", .account: "a0"], limit: .one)
        warm.authentication = options
        _ = try keychain.find(warm, returning: .data)  // the one PIN prompt; later reads reuse it
        var readProtected = Measurement("find data, userPresence item, authentication reused")
        var readPlain = Measurement("find data, plain item")
        for index in 0..<samples {
            var protected = Query(
                .genericPassword, [.service: "protected", .account: .string("a\(index)")], limit: .one)
            protected.authentication = options
            _ = try readProtected.time { try keychain.find(protected, returning: .data) }
            _ = try readPlain.time {
                try keychain.find(
                    Query(.genericPassword, [.service: "plain", .account: .string("a\(index)")], limit: .one),
                    returning: .data)
            }
        }
        results += [addProtected, addPlain, readProtected, readPlain]
        results += try rsa(samples: samples)
        return results
    }

    struct Failed: Error { let message: String }

    /// The value of a SecKey call, or its CFError as a thrown error.
    static func unwrap<T>(_ body: (UnsafeMutablePointer<Unmanaged<CFError>?>) -> T?) throws -> T {
        var error: Unmanaged<CFError>?
        guard let value = body(&error) else { throw Failed(message: "\(error?.takeRetainedValue() as Any)") }
        return value
    }
}
#endif
