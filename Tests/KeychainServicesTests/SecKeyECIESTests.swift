#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux SecKey implementation; on Apple platforms these are Apple's.
import Crypto
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// SecKeyCreateEncryptedData / SecKeyCreateDecryptedData with Apple's ECIES.
final class SecKeyECIESTests: SecItemTestCase {
    /// Every ECIES algorithm this platform performs, with its hash and IV kind.
    static let algorithms: [(SecKeyAlgorithm, hash: String, variableIV: Bool)] = [
        (.eciesEncryptionStandardX963SHA1AESGCM, "SHA1", false),
        (.eciesEncryptionStandardX963SHA256AESGCM, "SHA256", false),
        (.eciesEncryptionStandardX963SHA384AESGCM, "SHA384", false),
        (.eciesEncryptionStandardX963SHA512AESGCM, "SHA512", false),
        (.eciesEncryptionCofactorX963SHA1AESGCM, "SHA1", false),
        (.eciesEncryptionCofactorX963SHA256AESGCM, "SHA256", false),
        (.eciesEncryptionCofactorX963SHA384AESGCM, "SHA384", false),
        (.eciesEncryptionCofactorX963SHA512AESGCM, "SHA512", false),
        (.eciesEncryptionStandardVariableIVX963SHA256AESGCM, "SHA256", true),
        (.eciesEncryptionStandardVariableIVX963SHA384AESGCM, "SHA384", true),
        (.eciesEncryptionStandardVariableIVX963SHA512AESGCM, "SHA512", true),
        (.eciesEncryptionCofactorVariableIVX963SHA256AESGCM, "SHA256", true),
        (.eciesEncryptionCofactorVariableIVX963SHA384AESGCM, "SHA384", true),
        (.eciesEncryptionCofactorVariableIVX963SHA512AESGCM, "SHA512", true)
    ]

    func encrypt(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ plaintext: Data) -> SecKeyOutcome<CFData> {
        secKeyCall { SecKeyCreateEncryptedData(key, algorithm, plaintext as CFData, $0) }
    }

    func decrypt(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: Data) -> SecKeyOutcome<CFData> {
        secKeyCall { SecKeyCreateDecryptedData(key, algorithm, ciphertext as CFData, $0) }
    }

    func testRoundTripForEveryAlgorithmAndCurve() throws {
        let plaintext = Data("attack at dawn".utf8)
        for bits in [256, 384, 521] {
            let key = try makeKey(bits: bits)
            let publicKey = try self.publicKey(of: key)
            let keyLength = 1 + 2 * SecKeyGetBlockSize(key)
            for (algorithm, _, _) in Self.algorithms {
                let ciphertext = try XCTUnwrap(
                    encrypt(publicKey, algorithm, plaintext).value as Data?, "\(bits) \(algorithm)")
                XCTAssertEqual(ciphertext.count, keyLength + plaintext.count + 16, "ephemeral key ‖ ciphertext ‖ tag")
                XCTAssertEqual(ciphertext.first, 0x04)
                XCTAssertEqual(decrypt(key, algorithm, ciphertext).value as Data?, plaintext, "\(bits) \(algorithm)")
            }
            let empty = try XCTUnwrap(
                encrypt(publicKey, .eciesEncryptionStandardVariableIVX963SHA256AESGCM, Data()).value as Data?)
            XCTAssertEqual(
                decrypt(key, .eciesEncryptionStandardVariableIVX963SHA256AESGCM, empty).value as Data?, Data())
        }
    }

    /// An ECIES encryption written here from swift-crypto primitives and the format facts only
    /// (ephemeral ECDH, X9.63 KDF with SharedInfo = ephemeral public key, AES-128 for P-256 and
    /// AES-256 above, all-zero or KDF-derived 16-byte IV, output ephemeral ‖ ciphertext ‖ tag).
    func independentEncrypt(to publicKey: Data, bits: Int, variableIV: Bool, _ plaintext: Data) throws -> Data {
        let (ephemeral, secret): (Data, SharedSecret) =
            switch bits {
            case 256:
                try {
                    let e = P256.KeyAgreement.PrivateKey()
                    return (
                        e.publicKey.x963Representation,
                        try e.sharedSecretFromKeyAgreement(with: .init(x963Representation: publicKey))
                    )
                }()
            default:
                try {
                    let e = P384.KeyAgreement.PrivateKey()
                    return (
                        e.publicKey.x963Representation,
                        try e.sharedSecretFromKeyAgreement(with: .init(x963Representation: publicKey))
                    )
                }()
            }
        let keySize = bits > 256 ? 32 : 16
        let derived = secret.x963DerivedSymmetricKey(
            using: SHA256.self, sharedInfo: ephemeral, outputByteCount: keySize + 16
        ).withUnsafeBytes { Data($0) }
        let iv = variableIV ? derived.suffix(16) : Data(count: 16)
        let box = try AES.GCM.seal(
            plaintext, using: SymmetricKey(data: derived.prefix(keySize)), nonce: AES.GCM.Nonce(data: iv))
        return ephemeral + box.ciphertext + box.tag
    }

    /// The matching independent decryption with a swift-crypto private key.
    func independentDecrypt(_ ciphertext: Data, privateKey: Data, bits: Int, variableIV: Bool) throws -> Data {
        let keyLength = bits == 256 ? 65 : 97
        let ephemeral = ciphertext.prefix(keyLength)
        let secret =
            bits == 256
            ? try P256.KeyAgreement.PrivateKey(x963Representation: privateKey).sharedSecretFromKeyAgreement(
                with: .init(x963Representation: ephemeral))
            : try P384.KeyAgreement.PrivateKey(x963Representation: privateKey).sharedSecretFromKeyAgreement(
                with: .init(x963Representation: ephemeral))
        let keySize = bits > 256 ? 32 : 16
        let derived = secret.x963DerivedSymmetricKey(
            using: SHA256.self, sharedInfo: ephemeral, outputByteCount: keySize + 16
        ).withUnsafeBytes { Data($0) }
        let iv = variableIV ? derived.suffix(16) : Data(count: 16)
        let body = ciphertext.dropFirst(keyLength)
        let box = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: iv), ciphertext: body.dropLast(16), tag: body.suffix(16))
        return try AES.GCM.open(box, using: SymmetricKey(data: derived.prefix(keySize)))
    }

    func testInteroperatesWithAnIndependentImplementation() throws {
        let plaintext = Data("cross-implementation".utf8)
        let cases: [(SecKeyAlgorithm, Bool)] = [
            (.eciesEncryptionStandardX963SHA256AESGCM, false), (.eciesEncryptionCofactorX963SHA256AESGCM, false),
            (.eciesEncryptionStandardVariableIVX963SHA256AESGCM, true),
            (.eciesEncryptionCofactorVariableIVX963SHA256AESGCM, true)
        ]
        for bits in [256, 384] {
            let key = try makeKey(bits: bits)
            let publicBytes = try external(self.publicKey(of: key))
            for (algorithm, variableIV) in cases {
                let theirs = try independentEncrypt(to: publicBytes, bits: bits, variableIV: variableIV, plaintext)
                XCTAssertEqual(
                    decrypt(key, algorithm, theirs).value as Data?, plaintext, "\(bits) \(algorithm) decrypts theirs")
                let ours = try XCTUnwrap(encrypt(try self.publicKey(of: key), algorithm, plaintext).value as Data?)
                XCTAssertEqual(
                    try independentDecrypt(ours, privateKey: external(key), bits: bits, variableIV: variableIV),
                    plaintext,
                    "\(bits) \(algorithm) is decrypted by theirs")
            }
        }
    }

    /// Ciphertexts made by Apple's `SecKeyCreateEncryptedData` in Swift, with their private keys
    /// (SEC1 DER), as published in the test suite of jedda/ECIES (`ecies_test.go`,
    /// `TestExternalDecryptSuccess`); each plaintext is the case's name.
    static let appleVectors: [(name: String, algorithm: SecKeyAlgorithm, key: String, ciphertext: String)] = [
        (
            "P256-SHA224-0IV", .eciesEncryptionCofactorX963SHA224AESGCM,
            "MHcCAQEEIJyzfcyptwjYkgdcFhfJlztLPmcfyzyCFs7NoQuCbAAhoAoGCCqGSM49AwEHoUQDQgAE7WttwmG8qki5bU2utMaugBWbWD9Jx/UPzgnGxthgHteyqPGofBjBwPZTbxj+lrIGNyHRdbOkSusD7051WG8nmg==",
            "BPIMheQOrz0l9wEjcOHQEQ16D9Go8Sm8bEM3LAgMEHUf/eHy3u0oVlfh2po9ocPCuKG2bQ28wlsQ0N6SNJ3O3auS/QeoUogLVcJ3+R1OOeixEJyqeUkn6zB8LcqoZ+Y2"
        ),
        (
            "P256-SHA224-VIV", .eciesEncryptionCofactorVariableIVX963SHA224AESGCM,
            "MHcCAQEEICc4dTt4v3ZjEQ7aJppfTHLNJKrQUH1pm6127OQsXfjeoAoGCCqGSM49AwEHoUQDQgAEv8iTB0Jx55bGTD/lTVkD8AUqBgMtHiHnO94/I/CGjUEja/TE3dx3aFCjONumJDsW5RPwCK5yTl85yS14/ZeP0g==",
            "BOFS+T9khqnasOma28IAIkquBbdx0yWd71niMjA6Xh+hYRzLrdFEIvNar8oskIL6MbiszIptf4UgoYPnqf+9b/9sM/kljjogttA9lt9zIUJBnRByTg/NScAa5i/nOe96"
        ),
        (
            "P256-SHA256-VIV", .eciesEncryptionCofactorVariableIVX963SHA256AESGCM,
            "MHcCAQEEIHGhxnpu3kG/nW5ozDZJ+TTFQvL6MynCcQWD6jHV4p0UoAoGCCqGSM49AwEHoUQDQgAEzgFYw3Rqc72IIYHV7JH6M245n/nLnxyre1A7sc5nOt31ZyfJQLXGs4dY0cggne28ueXHID5lKz1JNChY49NHYg==",
            "BI6sBCGyf916GQSV3DHOvmFxOmzbV9pq08wcOdKaepP2/Qtepj9M71dYkzXf6OqIstDyyVIxfnAMfUpxZzoCHDbalYRzzwhqHwg7K6RNl1F29PVdLNtJH498yJSfloW/"
        ),
        (
            "P384-SHA384-VIV", .eciesEncryptionCofactorVariableIVX963SHA384AESGCM,
            "MIGkAgEBBDC5Lt6wBRiiEC2O71i3lv8Jtgg+YP4Y3gCj7B7nOtdQO/5PQPRjpFPJ3ft0yjbzHEagBwYFK4EEACKhZANiAAToVnztZKN1KVhot+MoN3CiPDZ0PoCDXrdP1uHQ61nz4XVrNdxgxyNUJC6cd0gsbujme66wxrq28zqWYBKvrFtIlS4W+NkuyCi5nABkHno7alAWv/fD7aQ8A3ZmWZohsaU=",
            "BM45TREbxELfwpTVBmltz+sB3vhkM85m/yiAsE8JSNmXVOeeUGzmxP5Z2jegApPxtOS8ilfhTN/m2XkOoJWGw3MKuekq5V5PcdvAi5xKcoOEynkS7uAKS3nhBH/+g+9/iNoTcRSrEpbgm8dOCGe+VRQ7hK8vI0ZRw74kernlNDw="
        ),
        (
            "P384-SHA384-0IV", .eciesEncryptionCofactorX963SHA384AESGCM,
            "MIGkAgEBBDCveSReIMZa6hbWVgmESfu/jMpEqIldBHcx4nQ46zxJ+hvm4lnesKrn0P0BkFYZ0jSgBwYFK4EEACKhZANiAAT0ctzSPeNUinYOJdYtCafXAsTKHLGY4WPPRM8pYL5x1UrvnPN0G1yiF4QsTX2Pgyvh2qositdwRGxv3ruo1yR8TcztRXugZF4a5xmcZuQW8hcEmPuk+xS5XXUMzryiEQc=",
            "BERkPl0YZUa9r7JV4W6n/rxsGBpzwdCpIgRaOKxRYuLHx3v5hGnTM1oGOEZzJQnpfvtperUyFfnPB5GP5ioxK4YkrqfjIlF0ip18v30o7TWReJ+MrKYWcC7/TGe/SxPagi/zX9uz4N0Jzp3GFarI5LUQ9mJNIna/3ajuBC9Du94="
        ),
        (
            "P521-SHA512-0IV", .eciesEncryptionCofactorX963SHA512AESGCM,
            "MIHcAgEBBEIAqKpwdZ9JdC3JdVpM7gj1Bgkep3LNTkYWqEYqwNe5w7oyzDh1yU0LVZzefyZNdaagU6DGNdZ+5u9cHqnh9GrQ5gWgBwYFK4EEACOhgYkDgYYABAD+MDxfbvbe9ZRZcZgWyDBbpf3JxHii0iScjxNqNWClJWlehHfX8niGE6VNktRQ3lMIwDSvUy3Esiex3gu8RHZnwAGzPjwLm1/w2YbOfp2TCNTL8m6eYUfLU0SNW7B61koL+Sk50yTHoseP7+lmM2t8x6uKsyLdo+XCIevpW8IEh0s5wg==",
            "BABqJoMa89aD0rRkZ+WrmWTeqUfcr3uvLmyk7KlbWPm45m0ptDeqsaxFtqeM0VR6IoBMQcvcCcW+hzlLPr7i15LJlADzKYe7al7Vp10fJBnnhM2K7Z12o/VtOynEEt+ed5IkP9BiopN/3swl79caHQqXxX+SWQijwosMh0rGFJZPjsPFcPpe8Aj9CiJ3y0hRH1D4fp+qtpx9LOBLyuXvRwdFi0Y="
        ),
        (
            "P521-SHA512-VIV", .eciesEncryptionCofactorVariableIVX963SHA512AESGCM,
            "MIHcAgEBBEIAg0dkiDMo6frSBz50hC2luT3T0oMv/nPnu4nUR+x9PWuGic4cBHkrlrUOwyTBfGmug8fYxNy2ytJhBEyCGookSK+gBwYFK4EEACOhgYkDgYYABACAYs51q+pIrE2k92p2ltjs0iBHTe8Kj+w1+x5hfmXS1tX0aR+kabb5qe6Q83Bsvq/dmj3R59XWmIaTz6tJprSr2gDqS2i9wpWspmDND2dYvhKECXj099CQt19V94qYyUjbXMEDkpvq5ZWQ2DBOnR3XnuwWOYj+Pskg0lseKkok4CtJ4A==",
            "BABIki+hjR7WmHUZz03yTelbH+eEwn0Dtpv8Fxwh7cyaue2ZceAytjlbQD2YA3FHC2Z0NMlk/B0C2Es8dZmPE9keEgBsUW0PjT4CyefgFIc2YEm5yDpcbJEKhj6FlGnOir1nJz8ZMTMdiY6vIrRCBLo6+Ek7iSfQIOGrdER3ESnE/gOdWsd4O3VmDQrwLboTIjKfngmBGlC5sdYUzSbQlsX2UUs="
        )
    ]

    func testDecryptsCiphertextsMadeByApple() throws {
        for vector in Self.appleVectors {
            let der = try XCTUnwrap(Data(base64Encoded: vector.key))
            let x963: Data =
                switch vector.name.prefix(4) {
                case "P256": try P256.KeyAgreement.PrivateKey(derRepresentation: der).x963Representation
                case "P384": try P384.KeyAgreement.PrivateKey(derRepresentation: der).x963Representation
                default: try P521.KeyAgreement.PrivateKey(derRepresentation: der).x963Representation
                }
            let key = try XCTUnwrap(
                SecKeyCreateWithData(
                    x963 as CFData,
                    [
                        kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                        kSecAttrKeyClass as String: kSecAttrKeyClassPrivate
                    ] as CFDictionary, nil))
            let ciphertext = try XCTUnwrap(Data(base64Encoded: vector.ciphertext))
            let outcome = decrypt(key, vector.algorithm, ciphertext)
            XCTAssertEqual(outcome.value as Data?, Data(vector.name.utf8), "\(vector.name): \(outcome.message ?? "")")
            // The IV kind matters: the other variant of the same hash cannot open it.
            let otherKind: SecKeyAlgorithm =
                switch vector.algorithm {
                case .eciesEncryptionCofactorX963SHA224AESGCM: .eciesEncryptionCofactorVariableIVX963SHA224AESGCM
                case .eciesEncryptionCofactorVariableIVX963SHA224AESGCM: .eciesEncryptionCofactorX963SHA224AESGCM
                case .eciesEncryptionCofactorVariableIVX963SHA256AESGCM: .eciesEncryptionCofactorX963SHA256AESGCM
                case .eciesEncryptionCofactorVariableIVX963SHA384AESGCM: .eciesEncryptionCofactorX963SHA384AESGCM
                case .eciesEncryptionCofactorVariableIVX963SHA512AESGCM: .eciesEncryptionCofactorX963SHA512AESGCM
                case .eciesEncryptionCofactorX963SHA384AESGCM: .eciesEncryptionCofactorVariableIVX963SHA384AESGCM
                default: .eciesEncryptionCofactorVariableIVX963SHA512AESGCM
                }
            XCTAssertEqual(decrypt(key, otherKind, ciphertext).status, errSecParam, vector.name)
        }
    }

    func testTokenKeysDecryptInsideTheKeychain() throws {
        for bits in [256, 384] {
            let key = try makeKey(
                bits: bits, token: true, [kSecAttrApplicationTag as String: Data("ecies-\(bits)".utf8)])
            let publicKey = try self.publicKey(of: key)
            for algorithm in [
                SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM,
                .eciesEncryptionStandardX963SHA256AESGCM
            ] {
                let secret = Data("for the token key".utf8)
                let ciphertext = try XCTUnwrap(encrypt(publicKey, algorithm, secret).value as Data?)
                XCTAssertEqual(decrypt(key, algorithm, ciphertext).value as Data?, secret, "\(bits) \(algorithm)")
                // Ciphertext from the independent implementation too.
                let variableIV = algorithm == .eciesEncryptionCofactorVariableIVX963SHA256AESGCM
                let theirs = try independentEncrypt(
                    to: try external(publicKey), bits: bits, variableIV: variableIV, secret)
                XCTAssertEqual(decrypt(key, algorithm, theirs).value as Data?, secret)
            }
            // Found again by tag, the key still decrypts.
            let found = copy(keyQuery(tag: "ecies-\(bits)", [kSecReturnRef as String: true]))
            let foundKey = try XCTUnwrap(found.result as? SecKey)
            let ciphertext = try XCTUnwrap(
                encrypt(publicKey, .eciesEncryptionStandardVariableIVX963SHA256AESGCM, Data("again".utf8)).value
                    as Data?)
            XCTAssertEqual(
                decrypt(foundKey, .eciesEncryptionStandardVariableIVX963SHA256AESGCM, ciphertext).value as Data?,
                Data("again".utf8))
        }
    }

    func testErrors() throws {
        let key = try makeKey()
        let publicKey = try self.publicKey(of: key)
        let algorithm = SecKeyAlgorithm.eciesEncryptionStandardVariableIVX963SHA256AESGCM
        let ciphertext = try XCTUnwrap(encrypt(publicKey, algorithm, Data("secret".utf8)).value as Data?)
        XCTAssertEqual(encrypt(key, algorithm, Data()).status, errSecParam, "encrypting needs the public key")
        XCTAssertEqual(
            decrypt(publicKey, algorithm, ciphertext).status, errSecParam, "decrypting needs the private key")
        XCTAssertEqual(
            encrypt(publicKey, .rsaEncryptionOAEPSHA256AESGCM, Data()).status, errSecParam,
            "RSA algorithm with an EC key")
        let sha224 = try XCTUnwrap(
            encrypt(publicKey, .eciesEncryptionStandardVariableIVX963SHA224AESGCM, Data("224".utf8)).value as Data?)
        XCTAssertEqual(
            decrypt(key, .eciesEncryptionStandardVariableIVX963SHA224AESGCM, sha224).value as Data?, Data("224".utf8),
            "SHA-224, as Apple")
        XCTAssertEqual(encrypt(publicKey, .ecdsaSignatureMessageX962SHA256, Data()).status, errSecParam)
        var tampered = ciphertext
        tampered[tampered.index(before: tampered.endIndex)] ^= 1
        let outcome = decrypt(key, algorithm, tampered)
        XCTAssertNil(outcome.value)
        XCTAssertEqual(outcome.status, errSecParam, "authentication failure (Apple reports errSecParam)")
        XCTAssertEqual(
            decrypt(key, .eciesEncryptionStandardX963SHA256AESGCM, ciphertext).status, errSecParam,
            "the zero-IV variant cannot open it")
        XCTAssertEqual(
            decrypt(key, .eciesEncryptionStandardVariableIVX963SHA384AESGCM, ciphertext).status, errSecParam,
            "another KDF hash cannot open it")
        XCTAssertEqual(decrypt(try makeKey(), algorithm, ciphertext).status, errSecParam, "another key cannot open it")
        XCTAssertEqual(
            decrypt(key, algorithm, ciphertext.prefix(65 + 15)).status, errSecParam, "shorter than key and tag")
        XCTAssertEqual(decrypt(key, algorithm, Data(count: 100)).status, errSecParam, "no ephemeral key in front")
    }
}
#endif
