#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import KeychainServices

/// Fuzzes the SecKey functions with hostile bytes: key data for `SecKeyCreateWithData`, ciphertexts
/// for ECIES decryption, signatures and messages for verification, peer keys and parameters for
/// key exchange, inputs to sign under every algorithm name (and unknown ones), and parameter
/// dictionaries for `SecKeyCreateRandomKey` — with software keys on the three curves and a key
/// generated inside the keychain. Any status is fine; a crash, a hang or a memory error is a finding.
public enum SecKeyFuzzTarget {
    private static let keychain = FuzzEnvironment.keychain("seckey-target")

    /// Every algorithm name Apple defines, then names that are almost right.
    static let algorithms: [String] = [
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA1:AESGCM",
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM",
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM-KDFIV",
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM",
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV",
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM",
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM-KDFIV",
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM",
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM-KDFIV",
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA1:AESGCM",
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM",
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM-KDFIV",
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM",
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV",
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM",
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM-KDFIV",
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM",
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM-KDFIV",
        "algid:encrypt:RSA:OAEP:SHA1",
        "algid:encrypt:RSA:OAEP:SHA1:AESGCM",
        "algid:encrypt:RSA:OAEP:SHA224",
        "algid:encrypt:RSA:OAEP:SHA224:AESGCM",
        "algid:encrypt:RSA:OAEP:SHA256",
        "algid:encrypt:RSA:OAEP:SHA256:AESGCM",
        "algid:encrypt:RSA:OAEP:SHA384",
        "algid:encrypt:RSA:OAEP:SHA384:AESGCM",
        "algid:encrypt:RSA:OAEP:SHA512",
        "algid:encrypt:RSA:OAEP:SHA512:AESGCM",
        "algid:encrypt:RSA:PKCS1",
        "algid:encrypt:RSA:raw",
        "algid:keyexchange:ECDH",
        "algid:keyexchange:ECDH:KDFX963:SHA1",
        "algid:keyexchange:ECDH:KDFX963:SHA224",
        "algid:keyexchange:ECDH:KDFX963:SHA256",
        "algid:keyexchange:ECDH:KDFX963:SHA384",
        "algid:keyexchange:ECDH:KDFX963:SHA512",
        "algid:keyexchange:ECDHC",
        "algid:keyexchange:ECDHC:KDFX963:SHA1",
        "algid:keyexchange:ECDHC:KDFX963:SHA224",
        "algid:keyexchange:ECDHC:KDFX963:SHA256",
        "algid:keyexchange:ECDHC:KDFX963:SHA384",
        "algid:keyexchange:ECDHC:KDFX963:SHA512",
        "algid:sign:ECDSA:RFC4754",
        "algid:sign:ECDSA:digest-RFC4754",
        "algid:sign:ECDSA:digest-RFC4754:SHA1",
        "algid:sign:ECDSA:digest-RFC4754:SHA224",
        "algid:sign:ECDSA:digest-RFC4754:SHA256",
        "algid:sign:ECDSA:digest-RFC4754:SHA384",
        "algid:sign:ECDSA:digest-RFC4754:SHA512",
        "algid:sign:ECDSA:digest-X962",
        "algid:sign:ECDSA:digest-X962:SHA1",
        "algid:sign:ECDSA:digest-X962:SHA224",
        "algid:sign:ECDSA:digest-X962:SHA256",
        "algid:sign:ECDSA:digest-X962:SHA384",
        "algid:sign:ECDSA:digest-X962:SHA512",
        "algid:sign:ECDSA:message-RFC4754:SHA1",
        "algid:sign:ECDSA:message-RFC4754:SHA224",
        "algid:sign:ECDSA:message-RFC4754:SHA256",
        "algid:sign:ECDSA:message-RFC4754:SHA384",
        "algid:sign:ECDSA:message-RFC4754:SHA512",
        "algid:sign:ECDSA:message-X962:SHA1",
        "algid:sign:ECDSA:message-X962:SHA224",
        "algid:sign:ECDSA:message-X962:SHA256",
        "algid:sign:ECDSA:message-X962:SHA384",
        "algid:sign:ECDSA:message-X962:SHA512",
        "algid:sign:RSA:digest-PKCS1v15",
        "algid:sign:RSA:digest-PKCS1v15:SHA1",
        "algid:sign:RSA:digest-PKCS1v15:SHA224",
        "algid:sign:RSA:digest-PKCS1v15:SHA256",
        "algid:sign:RSA:digest-PKCS1v15:SHA384",
        "algid:sign:RSA:digest-PKCS1v15:SHA512",
        "algid:sign:RSA:digest-PSS:SHA1:SHA1:20",
        "algid:sign:RSA:digest-PSS:SHA224:SHA224:24",
        "algid:sign:RSA:digest-PSS:SHA256:SHA256:32",
        "algid:sign:RSA:digest-PSS:SHA384:SHA384:48",
        "algid:sign:RSA:digest-PSS:SHA512:SHA512:64",
        "algid:sign:RSA:message-PKCS1v15:SHA1",
        "algid:sign:RSA:message-PKCS1v15:SHA224",
        "algid:sign:RSA:message-PKCS1v15:SHA256",
        "algid:sign:RSA:message-PKCS1v15:SHA384",
        "algid:sign:RSA:message-PKCS1v15:SHA512",
        "algid:sign:RSA:message-PSS:SHA1:SHA1:20",
        "algid:sign:RSA:message-PSS:SHA224:SHA224:24",
        "algid:sign:RSA:message-PSS:SHA256:SHA256:32",
        "algid:sign:RSA:message-PSS:SHA384:SHA384:48",
        "algid:sign:RSA:message-PSS:SHA512:SHA512:64",
        "algid:sign:RSA:raw",
        "algid:sign:ECDSA", "algid:encrypt:ECIES", "", "algid:keyexchange:ECDH:KDFX963:SHA999"
    ]

    private struct Keys: @unchecked Sendable {
        let privateKeys: [SecKey]
        let publicKeys: [SecKey]
    }

    private static let keys: Keys = {
        SecItemEnvironment.useKeychain(keychain)
        SecItemEnvironment.applicationIdentity = ApplicationIdentity(applicationIdentifier: "FUZZTEAM.org.example.fuzz")
        var privateKeys: [SecKey] = []
        for (bits, token) in [(256, false), (384, false), (521, false), (256, true)] {
            var parameters: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: bits
            ]
            if token { parameters[kSecAttrTokenID as String] = kSecAttrTokenIDSecureEnclave }
            guard let key = SecKeyCreateRandomKey(parameters as CFDictionary, nil) else {
                fatalError("cannot create the fuzzing keys")
            }
            privateKeys.append(key)
        }
        return Keys(privateKeys: privateKeys, publicKeys: privateKeys.compactMap(SecKeyCopyPublicKey))
    }()

    /// Runs one input; returns what happened (`"ok"` or `"error <status>"`).
    @discardableResult
    public static func run(_ data: Data) -> String {
        let keys = self.keys
        if SecItemEnvironment.openedKeychain !== keychain { SecItemEnvironment.useKeychain(keychain) }
        var input = FuzzInput(data)
        let operation = input.choice(6)
        let privateKey = keys.privateKeys[input.choice(keys.privateKeys.count)]
        let publicKey = keys.publicKeys[input.choice(keys.publicKeys.count)]
        let algorithm = SecKeyAlgorithm(rawValue: NSString(string: algorithms[input.choice(algorithms.count)]))
        var error: Unmanaged<CFError>?
        let succeeded: Bool
        switch operation {
        case 0:
            let type = [kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyTypeRSA, "x" as CFString][input.choice(3)]
            let keyClass = [
                kSecAttrKeyClassPublic, kSecAttrKeyClassPrivate, kSecAttrKeyClassSymmetric, "9" as CFString
            ][input.choice(4)]
            let sizeChoice = input.choice(6)
            let size = sizeChoice == 5 ? Int(input.integer() % 100_000) : [256, 384, 521, 0, -1][sizeChoice]
            let attributes: [String: Any] = [
                kSecAttrKeyType as String: type, kSecAttrKeyClass as String: keyClass,
                kSecAttrKeySizeInBits as String: size
            ]
            succeeded = SecKeyCreateWithData(input.remainder() as CFData, attributes as CFDictionary, &error) != nil
        case 1:
            succeeded = SecKeyCreateDecryptedData(privateKey, algorithm, input.remainder() as CFData, &error) != nil
        case 2:
            let message = input.data(limit: 128)
            succeeded = SecKeyVerifySignature(
                publicKey, algorithm, message as CFData, input.remainder() as CFData, &error)
        case 3:
            let requestedSize = Int(input.integer() % 1_000_000)
            let sharedInfo = input.data(limit: 64)
            let parameters: [String: Any] = [
                SecKeyKeyExchangeParameter.requestedSize.rawValue as String: requestedSize,
                SecKeyKeyExchangeParameter.sharedInfo.rawValue as String: sharedInfo
            ]
            let peer =
                SecKeyCreateWithData(
                    input.remainder() as CFData,
                    [
                        kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                        kSecAttrKeyClass as String: kSecAttrKeyClassPublic
                    ] as CFDictionary, nil) ?? publicKey
            succeeded =
                SecKeyCopyKeyExchangeResult(privateKey, algorithm, peer, parameters as CFDictionary, &error) != nil
        case 4:
            succeeded = SecKeyCreateSignature(privateKey, algorithm, input.remainder() as CFData, &error) != nil
        default:
            succeeded = SecKeyCreateEncryptedData(publicKey, algorithm, input.remainder() as CFData, &error) != nil
        }
        guard !succeeded else { return "ok" }
        return "error \(error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? 0)"
    }

    /// One valid input per operation, for the corpus and the regression test.
    public static var seeds: [Data] {
        let ecies = UInt8(algorithms.firstIndex(of: "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV")!)
        let signing = UInt8(algorithms.firstIndex(of: "algid:sign:ECDSA:message-X962:SHA256")!)
        let exchange = UInt8(algorithms.firstIndex(of: "algid:keyexchange:ECDH")!)
        return [
            Data([0, 0, 0, signing, 0, 0, 0]) + keys.publicKeys[0].x963,
            Data([5, 0, 0, ecies]) + Data("a message to seal".utf8),
            Data([2, 0, 0, signing, 3]) + Data("abc".utf8),
            Data([3, 0, 0, exchange, 0, 0, 0, 0, 0, 0, 0, 32, 0]) + keys.publicKeys[0].x963,
            Data([4, 3, 0, signing]) + Data("sign me inside the keychain".utf8)
        ]
    }
}

extension SecKey {
    /// The X9.63 external representation (public keys).
    fileprivate var x963: Data { (SecKeyCopyExternalRepresentation(self, nil) as Data?) ?? Data() }
}
#endif
