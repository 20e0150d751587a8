#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Attack tests of the Linux RSA SecKey implementation: forged and malformed signatures,
// malformed ciphertexts and padding oracles, hostile key DER, leaks, and edited key items.
import Crypto
import AttackTestSupport
import Foundation
import KeychainCore
import KeychainServices
import XCTest

// MARK: - Helpers

/// A tiny DER writer/reader for building hostile RSA keys.
private enum AttackDER {
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var value = count
        while value > 0 {
            bytes.insert(UInt8(value & 0xFF), at: 0)
            value >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + length(content.count) + content }

    /// A DER INTEGER of the unsigned big-endian `magnitude` (minimal encoding).
    static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty { bytes = [0] }
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(0x02, bytes)
    }

    static func sequence(_ parts: [[UInt8]]) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }

    /// The magnitudes of the INTEGERs in a DER SEQUENCE of INTEGERs.
    static func integers(_ der: Data) -> [[UInt8]] {
        let bytes = [UInt8](der)
        var index = 0
        func readLength() -> Int {
            let first = Int(bytes[index])
            index += 1
            guard first >= 0x80 else { return first }
            var value = 0
            for _ in 0..<(first & 0x7F) {
                value = value << 8 | Int(bytes[index])
                index += 1
            }
            return value
        }
        precondition(bytes[index] == 0x30)
        index += 1
        _ = readLength()
        var result: [[UInt8]] = []
        while index < bytes.count {
            precondition(bytes[index] == 0x02)
            index += 1
            let count = readLength()
            result.append(Array(bytes[index..<(index + count)].drop { $0 == 0 }))
            index += count
        }
        return result
    }
}

private func sha256(_ data: Data) -> Data { Data(SHA256.hash(data: data)) }

private func mgf1SHA256(_ seed: Data, _ length: Int) -> Data {
    var output = Data()
    var counter: UInt32 = 0
    while output.count < length {
        output += sha256(seed + withUnsafeBytes(of: counter.bigEndian) { Data($0) })
        counter += 1
    }
    return output.prefix(length)
}

private func mgf1SHA384(_ seed: Data, _ length: Int) -> Data {
    var output = Data()
    var counter: UInt32 = 0
    while output.count < length {
        output += Data(SHA384.hash(data: seed + withUnsafeBytes(of: counter.bigEndian) { Data($0) }))
        counter += 1
    }
    return output.prefix(length)
}

private func hexString(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

/// DigestInfo prefix of SHA-256.
private let sha256DigestInfoPrefix: [UInt8] = [
    0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20
]

final class SecKeyRSAAttackTests: SecItemTestCase {
    private let rsaPublicAttributes: [String: Any] = [
        kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPublic
    ]
    private let rsaPrivateAttributes: [String: Any] = [
        kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate
    ]

    private var modulusBytes: Int { 256 }

    private func importKey(_ der: Data, isPrivate: Bool) -> SecKeyOutcome<SecKey> {
        let attributes = isPrivate ? rsaPrivateAttributes : rsaPublicAttributes
        return secKeyCall { SecKeyCreateWithData(der as CFData, attributes as CFDictionary, $0) }
    }

    /// `EM` signed with the private key's raw operation (the "signature" of an arbitrary encoding).
    private func rawSign(_ key: SecKey, _ encoded: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws
        -> Data
    {
        try sign(key, .rsaSignatureRaw, Data(encoded), file: file, line: line)
    }

    /// `EM^e mod n`: what anyone holding only the public key can compute.
    private func rawPublic(_ publicKey: SecKey, _ encoded: [UInt8], file: StaticString = #filePath, line: UInt = #line)
        throws -> Data
    {
        try XCTUnwrap(
            encryptOutcome(publicKey, .rsaEncryptionRaw, Data(encoded)).value as Data?, file: file, line: line)
    }

    private func pkcs1Encoding(_ t: [UInt8], padding: Int? = nil, blockType: UInt8 = 0x01, filler: UInt8 = 0xFF)
        -> [UInt8]
    {
        let ps = padding ?? (modulusBytes - 3 - t.count)
        var em: [UInt8] = [0x00, blockType] + [UInt8](repeating: filler, count: ps) + [0x00] + t
        // should not happen
        if em.count < modulusBytes { em = [UInt8](repeating: 0, count: modulusBytes - em.count) + em }
        return em
    }

    /// EMSA-PSS (SHA-256, MGF1-SHA-256) for a 2048-bit key, with knobs to break it.
    private func pssEncoding(
        digest: Data, salt: Data, trailer: UInt8 = 0xBC, separator: UInt8 = 0x01,
        setTopBit: Bool = false, nonZeroPadding: Bool = false
    ) -> [UInt8] {
        let emLen = 256
        let hLen = 32
        let h = sha256(Data(count: 8) + digest + salt)
        var db = [UInt8](repeating: 0, count: emLen - salt.count - hLen - 2) + [separator] + [UInt8](salt)
        if nonZeroPadding { db[0] = 0x01 }
        let mask = [UInt8](mgf1SHA256(h, emLen - hLen - 1))
        for index in db.indices { db[index] ^= mask[index] }
        db[0] &= 0x7F
        if setTopBit { db[0] |= 0x80 }
        return db + [UInt8](h) + [trailer]
    }

    /// EME-OAEP with SHA-256 or SHA-384 for a 2048-bit key, with knobs to break it.
    private func oaepEncoding(
        _ message: [UInt8], sha384: Bool, firstByte: UInt8 = 0, breakLabelHash: Bool = false,
        separator: UInt8 = 0x01, nonZeroPadding: Bool = false, seed: [UInt8]
    ) -> [UInt8] {
        let hLen = sha384 ? 48 : 32
        let lHash = sha384 ? [UInt8](SHA384.hash(data: Data())) : [UInt8](SHA256.hash(data: Data()))
        var db =
            lHash + [UInt8](repeating: 0, count: modulusBytes - message.count - 2 * hLen - 2) + [separator] + message
        if breakLabelHash { db[3] ^= 0x55 }
        if nonZeroPadding { db[hLen + 1] = 0x07 }
        let mgf = sha384 ? mgf1SHA384 : mgf1SHA256
        let dbMask = [UInt8](mgf(Data(seed), db.count))
        for index in db.indices { db[index] ^= dbMask[index] }
        var maskedSeed = seed
        let seedMask = [UInt8](mgf(Data(db), hLen))
        for index in maskedSeed.indices { maskedSeed[index] ^= seedMask[index] }
        return [firstByte] + maskedSeed + db
    }

    // MARK: - Signature forgery and lenient verification

    /// PKCS#1 v1.5 verification compares the whole encoding: garbage after the digest, BER
    /// lengths, missing NULL parameters, short padding, other block types, a wrong OID and a
    /// wrong OCTET STRING length are all refused.
    func testPKCS1v15VerificationIsStrict() throws {
        let key = try RSATestKeys.vectorKey()
        let publicKey = try self.publicKey(of: key)
        let message = Data("pay 100 to mallory".utf8)
        let digest = [UInt8](sha256(message))
        let digestInfo = sha256DigestInfoPrefix + digest

        // Sanity: the test's own encoding, raw-signed, is a valid signature.
        let valid = try rawSign(key, pkcs1Encoding(digestInfo))
        XCTAssertTrue(
            verify(publicKey, .rsaSignatureMessagePKCS1v15SHA256, message, valid).valid,
            "the test's EMSA encoding is right")
        XCTAssertEqual(valid, try sign(key, .rsaSignatureMessagePKCS1v15SHA256, message))

        var berLength = digestInfo
        berLength.replaceSubrange(0..<2, with: [0x30, 0x81, 0x31])
        var noNull = sha256DigestInfoPrefix
        noNull.removeSubrange(15..<17)  // 05 00
        noNull[1] = 0x2F
        noNull[3] = 0x0B
        var sha512OID = digestInfo
        sha512OID[14] = 0x03
        var longOctets = sha256DigestInfoPrefix + digest + [0x00]
        longOctets[1] = 0x32
        longOctets[18] = 0x21
        let variants: [(String, [UInt8])] = [
            ("garbage after the digest", pkcs1Encoding(digestInfo + [0xDE, 0xAD, 0xBE, 0xEF])),
            (
                "garbage inside the padding (Bleichenbacher'06 style)",
                [0x00, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
                    + digestInfo + [UInt8](repeating: 0x42, count: 256 - 11 - digestInfo.count)
            ),
            ("BER long-form length", pkcs1Encoding(berLength)),
            ("DigestInfo without NULL parameters", pkcs1Encoding(noNull + digest)),
            (
                "short padding, junk before the DigestInfo",
                [0x00, 0x01, 0xFF, 0xFF, 0x00] + [UInt8](repeating: 0x17, count: 256 - 5 - digestInfo.count)
                    + digestInfo
            ),
            ("block type 0 padding", pkcs1Encoding(digestInfo, blockType: 0x00, filler: 0x00)),
            ("block type 2", pkcs1Encoding(digestInfo, blockType: 0x02)),
            ("padding bytes not 0xFF", pkcs1Encoding(digestInfo, filler: 0xFE)),
            ("first byte 0x01", [0x01] + pkcs1Encoding(digestInfo).dropFirst()),
            ("SHA-512 OID with a SHA-256 digest", pkcs1Encoding(sha512OID)),
            ("OCTET STRING of 33 bytes", pkcs1Encoding(longOctets)),
            ("raw digest without DigestInfo", pkcs1Encoding(digest))
        ]
        for (situation, encoded) in variants {
            XCTAssertEqual(encoded.count, 256, situation)
            let signature = try rawSign(key, encoded)
            let result = verify(publicKey, .rsaSignatureMessagePKCS1v15SHA256, message, signature)
            XCTAssertFalse(result.valid, "forged (\(situation)) signature accepted")
            XCTAssertEqual(result.status, errSecVerifyFailed, situation)
            XCTAssertFalse(
                verify(publicKey, .rsaSignatureDigestPKCS1v15SHA256, Data(digest), signature).valid,
                "digest form: \(situation)")
        }
    }

    /// PSS verification: Apple's salt length is the digest size; other salt lengths, a wrong
    /// trailer byte, a set top bit, a wrong separator and non-zero padding are refused.
    func testPSSVerificationIsStrict() throws {
        let key = try RSATestKeys.vectorKey()
        let publicKey = try self.publicKey(of: key)
        let modulusTop = try external(publicKey)[9]  // first modulus byte (after 30 82 01 0a 02 82 01 01 00)
        let message = Data("pss message".utf8)
        let digest = sha256(message)
        var rng = SplitMix64(seed: 7)
        func salt(_ count: Int) -> Data { Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }) }

        let good = try rawSign(key, pssEncoding(digest: digest, salt: salt(32)))
        XCTAssertTrue(
            verify(publicKey, .rsaSignatureMessagePSSSHA256, message, good).valid, "the test's PSS encoding is right")
        XCTAssertTrue(verify(publicKey, .rsaSignatureDigestPSSSHA256, digest, good).valid)

        var variants: [(String, [UInt8])] = [
            ("salt of 0 bytes", pssEncoding(digest: digest, salt: Data())),
            ("salt of 20 bytes", pssEncoding(digest: digest, salt: salt(20))),
            ("salt of 31 bytes", pssEncoding(digest: digest, salt: salt(31))),
            ("salt of 33 bytes", pssEncoding(digest: digest, salt: salt(33))),
            ("salt of 64 bytes", pssEncoding(digest: digest, salt: salt(64))),
            ("trailer 0xBB", pssEncoding(digest: digest, salt: salt(32), trailer: 0xBB)),
            ("trailer 0x00", pssEncoding(digest: digest, salt: salt(32), trailer: 0x00)),
            ("separator 0x02", pssEncoding(digest: digest, salt: salt(32), separator: 0x02)),
            ("separator 0x00", pssEncoding(digest: digest, salt: salt(32), separator: 0x00)),
            ("non-zero padding", pssEncoding(digest: digest, salt: salt(32), nonZeroPadding: true))
        ]
        // The masked top bit set: find a salt whose encoding stays below the modulus.
        for _ in 0..<200 {
            let encoded = pssEncoding(digest: digest, salt: salt(32), setTopBit: true)
            if encoded[0] < modulusTop {
                variants.append(("top bit set", encoded))
                break
            }
        }
        XCTAssertEqual(variants.count, 11, "found a top-bit variant below the modulus")
        for (situation, encoded) in variants {
            let signature = try rawSign(key, encoded)
            let result = verify(publicKey, .rsaSignatureMessagePSSSHA256, message, signature)
            XCTAssertFalse(result.valid, "PSS \(situation) accepted")
            XCTAssertEqual(result.status, errSecVerifyFailed, situation)
        }
        // A PSS signature is no PKCS#1 v1.5 signature and vice versa, and hashes do not mix.
        XCTAssertFalse(verify(publicKey, .rsaSignatureMessagePKCS1v15SHA256, message, good).valid)
        XCTAssertFalse(verify(publicKey, .rsaSignatureMessagePSSSHA1, message, good).valid)
        XCTAssertFalse(verify(publicKey, .rsaSignatureMessagePSSSHA384, message, good).valid)
        let pkcs1 = try sign(key, .rsaSignatureMessagePKCS1v15SHA256, message)
        XCTAssertFalse(verify(publicKey, .rsaSignatureMessagePSSSHA256, message, pkcs1).valid)
    }

    /// Signature values that are not signatures: 0, 1, n-1, n, n+1, all-0xFF, empty, longer
    /// than the modulus. PKCS#1 v1.5 and PSS refuse them all without crashing.
    func testDegenerateSignatureValuesAreRefused() throws {
        let key = try RSATestKeys.vectorKey()
        let publicKey = try self.publicKey(of: key)
        let n = AttackDER.integers(RSAVectors.publicKey)[0]
        XCTAssertEqual(n.count, 256)
        var nMinus1 = n
        nMinus1[255] -= 1
        var nPlus1 = n
        nPlus1[255] += 1
        let message = Data("m".utf8)
        let genuine = try sign(key, .rsaSignatureMessagePKCS1v15SHA256, message)
        let values: [(String, Data)] = [
            ("empty", Data()), ("one zero byte", Data([0])), ("all zero", Data(count: 256)), ("one", Data([1])),
            ("n - 1", Data(nMinus1)), ("n", Data(n)), ("n + 1", Data(nPlus1)),
            ("all 0xFF", Data(repeating: 0xFF, count: 256)),
            ("genuine + n (one byte longer)", Data([0x01]) + genuine),
            ("genuine with a zero byte in front", Data([0]) + genuine),
            ("genuine with a zero byte behind", genuine + [0]), ("genuine with the last byte cut", genuine.dropLast()),
            ("2 × modulus size", genuine + genuine)
        ]
        for algorithm in [
            SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA256, .rsaSignatureMessagePSSSHA256,
            .rsaSignatureDigestPKCS1v15Raw
        ] {
            for (situation, signature) in values {
                let result = verify(publicKey, algorithm, message, signature)
                XCTAssertFalse(result.valid, "\(algorithm): \(situation) accepted")
                XCTAssertTrue(
                    result.status == errSecVerifyFailed || result.status == errSecParam,
                    "\(algorithm) \(situation): \(String(describing: result.status))")
            }
        }
    }

    /// Apple's RSA private key "verifies" with its raw private operation, so a value forged from
    /// the *public* key alone (EM^e mod n) matches: s^d = EM. Here a private key refuses to
    /// verify, so no forgery passes.
    func testVerifyingWithAPrivateKeyAcceptsNoForgery() throws {
        let key = try RSATestKeys.vectorKey()
        let publicKey = try self.publicKey(of: key)
        let message = Data("transfer 1,000,000 to mallory".utf8)
        let digest = sha256(message)

        // A private key refuses verification outright.
        let genuine = try sign(key, .rsaSignatureMessagePKCS1v15SHA256, message)
        XCTAssertEqual(verify(key, .rsaSignatureMessagePKCS1v15SHA256, message, genuine).status, errSecParam)

        // Forgeries made with the public key only.
        let forgedPKCS1 = try rawPublic(publicKey, pkcs1Encoding(sha256DigestInfoPrefix + [UInt8](digest)))
        let forgedPSS = try rawPublic(publicKey, pssEncoding(digest: digest, salt: Data(repeating: 9, count: 32)))
        let rawData = Data([0x42]) + Data(repeating: 0x99, count: 100)
        let forgedRaw = try rawPublic(publicKey, [UInt8](rawData))
        for (algorithm, data, forged) in [
            (SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA256, message, forgedPKCS1),
            (.rsaSignatureDigestPKCS1v15SHA256, digest, forgedPKCS1),
            (.rsaSignatureMessagePSSSHA256, message, forgedPSS),
            (.rsaSignatureRaw, rawData, forgedRaw)
        ] {
            let result = verify(key, algorithm, data, forged)
            XCTAssertFalse(
                result.valid, "\(algorithm): a signature forged from the public key verifies with the private key")
            XCTAssertNotNil(result.status, "\(algorithm)")
        }
    }

    /// Raw verification of empty data refuses the empty and the all-zero signature (0^e = 0, and
    /// leading zeros are stripped before comparing).
    func testRawVerificationRefusesZeroSignatureOfEmptyData() throws {
        let publicKey = try self.publicKey(of: RSATestKeys.vectorKey())
        XCTAssertFalse(
            verify(publicKey, .rsaSignatureRaw, Data(), Data()).valid, "empty signature of empty data accepted")
        XCTAssertFalse(
            verify(publicKey, .rsaSignatureRaw, Data(), Data(count: 256)).valid,
            "all-zero signature of empty data accepted")
    }

    /// A signature whose first byte is 0x00 does not verify with that byte cut off: one
    /// signature has one byte string (RFC 8017 requires the modulus length), so signatures can
    /// serve as identifiers (a replay cache).
    func testSignatureOneByteShorterThanTheModulusIsRefused() throws {
        let key = try RSATestKeys.vectorKey()
        let publicKey = try self.publicKey(of: key)
        var found: (Data, Data)?
        for index in 0..<4000 {
            let message = Data("message \(index)".utf8)
            let signature = try sign(key, .rsaSignatureMessagePKCS1v15SHA256, message)
            if signature.first == 0 {
                found = (message, signature)
                break
            }
        }
        let (message, signature) = try XCTUnwrap(found, "no signature with a leading zero byte in 4000 tries")
        XCTAssertTrue(verify(publicKey, .rsaSignatureMessagePKCS1v15SHA256, message, signature).valid)
        let shorter = Data(signature.dropFirst())
        XCTAssertEqual(shorter.count, 255)
        XCTAssertFalse(
            verify(publicKey, .rsaSignatureMessagePKCS1v15SHA256, message, shorter).valid,
            "a 255-byte signature for a 256-byte modulus verifies (signature malleability)")
    }

    // MARK: - Decryption of malformed ciphertexts

    func testMalformedCiphertextsGiveErrSecParamNeverPlaintext() throws {
        let key = try RSATestKeys.vectorKey()
        let publicKey = try self.publicKey(of: key)
        let n = AttackDER.integers(RSAVectors.publicKey)[0]
        var rng = SplitMix64(seed: 42)
        func random(_ count: Int) -> Data { Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }) }
        let inputs: [(String, Data)] = [
            ("empty", Data()), ("one byte", Data([7])), ("255 random bytes", random(255)),
            ("256 random bytes below n", Data([0x10]) + random(255)),
            ("all 0xFF (>= n)", Data(repeating: 0xFF, count: 256)), ("n", Data(n)), ("257 bytes", Data(count: 257)),
            ("512 bytes", random(512)), ("all zero", Data(count: 256))
        ]
        for algorithm in [
            SecKeyAlgorithm.rsaEncryptionPKCS1, .rsaEncryptionOAEPSHA1, .rsaEncryptionOAEPSHA224,
            .rsaEncryptionOAEPSHA256,
            .rsaEncryptionOAEPSHA384, .rsaEncryptionOAEPSHA512
        ] {
            for (situation, data) in inputs {
                let outcome = decryptOutcome(key, algorithm, data)
                XCTAssertNil(outcome.value, "\(algorithm): \(situation) decrypted")
                XCTAssertEqual(outcome.status, errSecParam, "\(algorithm): \(situation): \(outcome.message ?? "")")
            }
        }
        // Raw: >= n and too long are parameter errors.
        for (situation, data) in [
            ("n", Data(n)), ("all 0xFF", Data(repeating: 0xFF, count: 256)), ("257 bytes", Data(count: 257))
        ] {
            XCTAssertEqual(decryptOutcome(key, .rsaEncryptionRaw, data).status, errSecParam, "raw: \(situation)")
            XCTAssertEqual(
                decryptOutcome(publicKey, .rsaEncryptionRaw, data).status, errSecParam, "raw public: \(situation)")
        }
        // A ciphertext for one algorithm never decrypts under another.
        let plaintext = Data("sixteen byte msg".utf8)
        for (encrypting, decrypting) in [
            (SecKeyAlgorithm.rsaEncryptionOAEPSHA256, SecKeyAlgorithm.rsaEncryptionOAEPSHA1),
            (.rsaEncryptionOAEPSHA1, .rsaEncryptionOAEPSHA256), (.rsaEncryptionOAEPSHA384, .rsaEncryptionOAEPSHA512),
            (.rsaEncryptionOAEPSHA256, .rsaEncryptionOAEPSHA224)
        ] {
            let ciphertext = try XCTUnwrap(encryptOutcome(publicKey, encrypting, plaintext).value as Data?)
            XCTAssertEqual(
                decryptOutcome(key, decrypting, ciphertext).status, errSecParam, "\(encrypting) → \(decrypting)")
        }
    }

    func testMalformedAESGCMPacketsGiveErrSecParam() throws {
        let key = try RSATestKeys.vectorKey()
        let publicKey = try self.publicKey(of: key)
        let otherPublic = try self.publicKey(of: RSATestKeys.privateKey(bits: 2048))
        let plaintext = Data("attack at dawn, bring snacks".utf8)
        for algorithm in [
            SecKeyAlgorithm.rsaEncryptionOAEPSHA1AESGCM, .rsaEncryptionOAEPSHA256AESGCM, .rsaEncryptionOAEPSHA512AESGCM
        ] {
            let packet = try XCTUnwrap(encryptOutcome(publicKey, algorithm, plaintext).value as Data?)
            let second = try XCTUnwrap(encryptOutcome(publicKey, algorithm, plaintext).value as Data?)
            let foreign = try XCTUnwrap(encryptOutcome(otherPublic, algorithm, plaintext).value as Data?)
            XCTAssertEqual(decryptOutcome(key, algorithm, packet).value as Data?, plaintext)
            let oaep: SecKeyAlgorithm =
                switch algorithm {
                case .rsaEncryptionOAEPSHA1AESGCM: .rsaEncryptionOAEPSHA1
                case .rsaEncryptionOAEPSHA256AESGCM: .rsaEncryptionOAEPSHA256
                default: .rsaEncryptionOAEPSHA512
                }
            let empty = try XCTUnwrap(encryptOutcome(publicKey, algorithm, Data()).value as Data?)
            XCTAssertEqual(empty.count, 256 + 16)
            XCTAssertEqual(decryptOutcome(key, algorithm, empty).value as Data?, Data())
            var flippedTag = packet
            flippedTag[flippedTag.count - 1] ^= 1
            var flippedBody = packet
            flippedBody[256] ^= 0x80
            var flippedWrap = packet
            flippedWrap[100] ^= 1
            let wrapped = { (bytes: Int) throws -> Data in
                try XCTUnwrap(self.encryptOutcome(publicKey, oaep, Data(repeating: 0x11, count: bytes)).value as Data?)
            }
            let cases: [(String, Data)] = [
                ("tag truncated by 1", packet.dropLast()), ("tag truncated by 16", packet.dropLast(16)),
                ("tag flipped", flippedTag),
                ("body flipped", flippedBody), ("wrapped key flipped", flippedWrap),
                ("wrapped key of another packet", second.prefix(256) + packet.dropFirst(256)),
                ("wrapped key for another RSA key", foreign.prefix(256) + packet.dropFirst(256)),
                ("wrapped key of 0 bytes", try wrapped(0) + packet.dropFirst(256)),
                ("wrapped key of 15 bytes", try wrapped(15) + packet.dropFirst(256)),
                ("wrapped key of 24 bytes", try wrapped(24) + packet.dropFirst(256)),
                ("wrapped key of 32 bytes", try wrapped(32) + packet.dropFirst(256)),
                ("wrapped key only", packet.prefix(256)), ("255 + 16 bytes", packet.prefix(271)),
                ("empty", Data()), ("wrapped key >= n", Data(repeating: 0xFF, count: 256) + packet.dropFirst(256)),
                ("extra byte appended", packet + [0])
            ]
            for (situation, data) in cases {
                let outcome = decryptOutcome(key, algorithm, data)
                XCTAssertNil(outcome.value, "\(algorithm): \(situation) gave plaintext")
                XCTAssertEqual(outcome.status, errSecParam, "\(algorithm): \(situation)")
            }
        }
    }

    /// All padding failures of one algorithm give the same status and message (no padding
    /// oracle in the messages beyond Apple's; Apple's own messages even include an error code).
    func testPaddingFailuresAreIndistinguishable() throws {
        let key = try RSATestKeys.vectorKey()
        let publicKey = try self.publicKey(of: key)
        let message: [UInt8] = Array("secret payload!!".utf8)
        var rng = SplitMix64(seed: 3)
        func nonZero(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 1...255, using: &rng) } }

        // PKCS#1 v1.5 (BoringSSL's decryption).
        let validPKCS1 = [0x00, 0x02] + nonZero(256 - 3 - message.count) + [0x00] + message
        XCTAssertEqual(
            decryptOutcome(key, .rsaEncryptionPKCS1, try rawPublic(publicKey, validPKCS1)).value as Data?, Data(message)
        )
        var pkcs1Bad: [(String, [UInt8])] = [
            ("first byte 1", [0x01, 0x02] + nonZero(256 - 3 - message.count) + [0x00] + message),
            ("block type 1", [0x00, 0x01] + nonZero(256 - 3 - message.count) + [0x00] + message),
            ("no separator", [0x00, 0x02] + nonZero(254)),
            ("padding of 7 bytes", [0x00, 0x02] + nonZero(7) + [0x00] + nonZero(256 - 10))
        ]
        pkcs1Bad.append(("padding of 0 bytes", [0x00, 0x02, 0x00] + nonZero(253)))
        var messages: Set<String> = []
        for (situation, encoded) in pkcs1Bad {
            let outcome = decryptOutcome(key, .rsaEncryptionPKCS1, try rawPublic(publicKey, encoded))
            XCTAssertNil(outcome.value, situation)
            XCTAssertEqual(outcome.status, errSecParam, situation)
            messages.insert(outcome.message ?? "")
        }
        XCTAssertEqual(messages.count, 1, "PKCS#1 padding failures are distinguishable: \(messages)")

        // OAEP with SHA-256 (BoringSSL) and SHA-384 (this library's decoder).
        for (algorithm, isSHA384) in [
            (SecKeyAlgorithm.rsaEncryptionOAEPSHA256, false), (.rsaEncryptionOAEPSHA384, true)
        ] {
            let seed = nonZero(isSHA384 ? 48 : 32)
            let valid = oaepEncoding(message, sha384: isSHA384, seed: seed)
            XCTAssertEqual(
                decryptOutcome(key, algorithm, try rawPublic(publicKey, valid)).value as Data?, Data(message),
                "\(algorithm) test encoding")
            let bad: [(String, [UInt8])] = [
                ("first byte 1", oaepEncoding(message, sha384: isSHA384, firstByte: 1, seed: seed)),
                ("wrong label hash", oaepEncoding(message, sha384: isSHA384, breakLabelHash: true, seed: seed)),
                ("separator 2", oaepEncoding(message, sha384: isSHA384, separator: 2, seed: seed)),
                ("non-zero padding", oaepEncoding(message, sha384: isSHA384, nonZeroPadding: true, seed: seed))
            ]
            var oaepMessages: Set<String> = []
            for (situation, encoded) in bad {
                let outcome = decryptOutcome(key, algorithm, try rawPublic(publicKey, encoded))
                XCTAssertNil(outcome.value, "\(algorithm): \(situation)")
                XCTAssertEqual(outcome.status, errSecParam, "\(algorithm): \(situation)")
                oaepMessages.insert(outcome.message ?? "")
            }
            XCTAssertEqual(oaepMessages.count, 1, "\(algorithm) padding failures are distinguishable: \(oaepMessages)")
        }
    }

    // MARK: - Hostile key DER

    func testHostilePublicKeyDER() throws {
        let parts = AttackDER.integers(RSAVectors.publicKey)
        let (n, e) = (parts[0], parts[1])
        XCTAssertEqual(Data(AttackDER.sequence([AttackDER.integer(n), AttackDER.integer(e)])), RSAVectors.publicKey)
        var evenN = n
        evenN[255] ^= 1
        var nested: [UInt8] = AttackDER.sequence([AttackDER.integer(n), AttackDER.integer(e)])
        for _ in 0..<3000 { nested = AttackDER.tlv(0x30, nested) }
        let rows: [(String, [UInt8], OSStatus)] = [
            ("negative modulus", AttackDER.sequence([AttackDER.tlv(0x02, n), AttackDER.integer(e)]), errSecParam),
            ("zero modulus", AttackDER.sequence([AttackDER.integer([0]), AttackDER.integer(e)]), errSecParam),
            ("tiny modulus 15", AttackDER.sequence([AttackDER.integer([15]), AttackDER.integer([3])]), errSecParam),
            ("even modulus", AttackDER.sequence([AttackDER.integer(evenN), AttackDER.integer(e)]), errSecParam),
            ("e = 1", AttackDER.sequence([AttackDER.integer(n), AttackDER.integer([1])]), errSecParam),
            ("e = 0", AttackDER.sequence([AttackDER.integer(n), AttackDER.integer([0])]), errSecParam),
            ("e = 2", AttackDER.sequence([AttackDER.integer(n), AttackDER.integer([2])]), errSecParam),
            ("negative e", AttackDER.sequence([AttackDER.integer(n), AttackDER.tlv(0x02, [0xFF])]), errSecParam),
            (
                "e of 40 bits", AttackDER.sequence([AttackDER.integer(n), AttackDER.integer([0x80, 0, 0, 0, 1])]),
                errSecParam
            ),
            ("e = n", AttackDER.sequence([AttackDER.integer(n), AttackDER.integer(n)]), errSecParam),
            (
                "non-minimal INTEGER (extra leading zero)",
                AttackDER.sequence([AttackDER.tlv(0x02, [0, 0] + n), AttackDER.integer(e)]), errSecParam
            ),
            (
                "non-minimal length of e", AttackDER.sequence([AttackDER.integer(n), [0x02, 0x81, 0x03] + e]),
                errSecParam
            ),
            (
                "non-minimal SEQUENCE length",
                [0x30, 0x83, 0x00, 0x01, 0x0A] + AttackDER.integer(n) + AttackDER.integer(e), errSecParam
            ),
            (
                "indefinite length", [0x30, 0x80] + AttackDER.integer(n) + AttackDER.integer(e) + [0x00, 0x00],
                errSecParam
            ),
            (
                "huge length", [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF] + AttackDER.integer(n) + AttackDER.integer(e),
                errSecParam
            ),
            (
                "length of 2^63", [0x30, 0x88, 0x80, 0, 0, 0, 0, 0, 0, 0] + AttackDER.integer(n) + AttackDER.integer(e),
                errSecParam
            ),
            (
                "third element",
                AttackDER.sequence([AttackDER.integer(n), AttackDER.integer(e), AttackDER.integer([1])]), errSecParam
            ),
            ("SET instead of SEQUENCE", AttackDER.tlv(0x31, AttackDER.integer(n) + AttackDER.integer(e)), errSecParam),
            ("deeply nested", nested, errSecParam),
            (
                "modulus of 8200 bits",
                AttackDER.sequence([
                    AttackDER.integer([0x80] + [UInt8](repeating: 0x33, count: 1023) + [0x01]),
                    AttackDER.integer(e)
                ]), errSecParam
            ),
            (
                "modulus of 20000 bits",
                AttackDER.sequence([
                    AttackDER.integer([0x80] + [UInt8](repeating: 0x33, count: 2498) + [0x01]),
                    AttackDER.integer(e)
                ]), errSecParam
            )
        ]
        for (situation, der, expected) in rows {
            let outcome = importKey(Data(der), isPrivate: false)
            XCTAssertNil(outcome.value, situation)
            XCTAssertEqual(outcome.status, expected, "\(situation): \(outcome.message ?? "")")
        }
        // A valid key with e = 3 works and encrypts correctly.
        let e3 = try XCTUnwrap(
            importKey(Data(AttackDER.sequence([AttackDER.integer(n), AttackDER.integer([3])])), isPrivate: false).value)
        XCTAssertNotNil(encryptOutcome(e3, .rsaEncryptionOAEPSHA256, Data("x".utf8)).value)
        XCTAssertTrue(e3.description.contains("decimal: 3"), e3.description)
    }

    func testHostilePrivateKeyDER() throws {
        let parts = AttackDER.integers(RSAVectors.privateKey)
        XCTAssertEqual(parts.count, 9)
        func build(_ change: (inout [[UInt8]]) -> Void) -> Data {
            var copy = parts
            change(&copy)
            return Data(AttackDER.sequence(copy.map(AttackDER.integer)))
        }
        XCTAssertEqual(build { _ in }, RSAVectors.privateKey, "the DER rebuilder is exact")
        var nPlus2 = parts[1]
        nPlus2[255] += 2
        var dPlus2 = parts[3]
        dPlus2[dPlus2.count - 1] &+= 2
        var dpPlus2 = parts[6]
        dpPlus2[dpPlus2.count - 1] &+= 2
        let rows: [(String, Data)] = [
            ("p × q ≠ n", build { $0[1] = nPlus2 }),
            ("p and q swapped (coefficient no longer matches)", build { $0.swapAt(4, 5) }),
            ("wrong d", build { $0[3] = dPlus2 }),
            ("wrong dP", build { $0[6] = dpPlus2 }),
            ("e = 1", build { $0[2] = [1] }),
            ("e = 3 (does not match d)", build { $0[2] = [3] }),
            ("zero modulus", build { $0[1] = [0] }),
            ("zero d", build { $0[3] = [0] }),
            ("zero p", build { $0[4] = [0] }),
            ("q = 1", build { $0[5] = [1] }),
            ("version 1 (multi-prime) without primes", build { $0[0] = [1] }),
            ("version 2", build { $0[0] = [2] }),
            ("missing coefficient", Data(AttackDER.sequence(parts.dropLast().map(AttackDER.integer)))),
            ("extra element", Data(AttackDER.sequence((parts + [[5]]).map(AttackDER.integer)))),
            ("trailing byte", RSAVectors.privateKey + [0]),
            (
                "negative modulus",
                Data(
                    AttackDER.sequence(
                        [AttackDER.integer([0])] + [AttackDER.tlv(0x02, parts[1])]
                            + parts.dropFirst(2).map(AttackDER.integer)))
            ),
            ("indefinite length", Data([0x30, 0x80] + parts.flatMap(AttackDER.integer) + [0, 0])),
            ("huge length", Data([0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF] + parts.flatMap(AttackDER.integer))),
            ("public key only", RSAVectors.publicKey)
        ]
        for (situation, der) in rows {
            let outcome = importKey(der, isPrivate: true)
            XCTAssertNil(outcome.value, situation)
            XCTAssertEqual(outcome.status, errSecParam, "\(situation): \(outcome.message ?? "")")
        }
    }

    /// Thousands of mutations of a valid PKCS#1 private (and public) key: never a crash, and
    /// either errSecParam or a key that computes correct results.
    func testFuzzedKeyImportNeverCrashesAndNeverGivesAWrongKey() throws {
        let vectorPublic = try self.publicKey(of: RSATestKeys.vectorKey())
        let message = Data("fuzz".utf8)
        var rng = SplitMix64(seed: 0x5EC0_12E5)
        func mutate(_ input: Data) -> Data {
            var bytes = [UInt8](input)
            let rounds = Int.random(in: 1...3, using: &rng)
            for _ in 0..<rounds {
                guard !bytes.isEmpty else {
                    bytes = [0x30]
                    continue
                }
                let index = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<9, using: &rng) {
                case 0: bytes[index] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
                case 1: bytes[index] = UInt8.random(in: 0...255, using: &rng)
                case 2: bytes[index] = [0x00, 0xFF, 0x80, 0x7F, 0x81, 0x82, 0x84][Int.random(in: 0..<7, using: &rng)]
                case 3: bytes.removeSubrange(index...)
                case 4: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: index)
                case 5: bytes.remove(at: index)
                case 6:  // a header byte (tag or length) near the start of an element
                    let header = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12][Int.random(in: 0..<13, using: &rng)]
                    if header < bytes.count { bytes[header] = UInt8.random(in: 0...255, using: &rng) }
                case 7: bytes += bytes[index...].prefix(Int.random(in: 1...64, using: &rng))
                default: bytes[bytes.count - 1 - Int.random(in: 0..<min(8, bytes.count), using: &rng)] ^= 0x01
                }
            }
            return Data(bytes)
        }
        var acceptedPrivate = 0
        var acceptedPublic = 0
        for iteration in 0..<6000 {
            let der = mutate(RSAVectors.privateKey)
            let outcome = importKey(der, isPrivate: true)
            if let key = outcome.value {
                acceptedPrivate += 1
                XCTAssertEqual(
                    try external(key), der,
                    "private mutant \(iteration) accepted but exported differently (non-canonical DER accepted)")
                let publicKey = try XCTUnwrap(SecKeyCopyPublicKey(key))
                let signature = try sign(key, .rsaSignatureMessagePKCS1v15SHA256, message)
                XCTAssertTrue(
                    verify(publicKey, .rsaSignatureMessagePKCS1v15SHA256, message, signature).valid,
                    "mutant \(iteration) signs wrongly")
                let ciphertext = try XCTUnwrap(
                    encryptOutcome(publicKey, .rsaEncryptionOAEPSHA256, message).value as Data?)
                XCTAssertEqual(
                    decryptOutcome(key, .rsaEncryptionOAEPSHA256, ciphertext).value as Data?, message,
                    "mutant \(iteration)")
                if verify(vectorPublic, .rsaSignatureMessagePKCS1v15SHA256, message, signature).valid {
                    XCTAssertEqual(
                        try external(publicKey), RSAVectors.publicKey, "mutant \(iteration) claims another public key")
                }
            } else {
                XCTAssertEqual(outcome.status, errSecParam, "private mutant \(iteration): \(outcome.message ?? "")")
            }
        }
        for iteration in 0..<6000 {
            let der = mutate(RSAVectors.publicKey)
            let outcome = importKey(der, isPrivate: Bool.random(using: &rng) && iteration % 3 == 0)
            if let key = outcome.value {
                acceptedPublic += 1
                XCTAssertEqual(try external(key), der, "public mutant \(iteration) is exported as given")
                _ = key.description
                let raw = encryptOutcome(key, .rsaEncryptionRaw, Data([2]))
                XCTAssertNotNil(raw.value, "public mutant \(iteration): \(raw.message ?? "")")
                _ = verify(key, .rsaSignatureMessagePKCS1v15SHA256, message, Data(count: SecKeyGetBlockSize(key)))
            } else {
                XCTAssertTrue(
                    outcome.status == errSecParam || outcome.status == errSecUnimplemented,
                    "public mutant \(iteration): \(String(describing: outcome.status)) \(outcome.message ?? "")")
            }
        }
        print(
            "RSA fuzz (6000 + 6000 mutants): \(acceptedPrivate) private and \(acceptedPublic) public mutants accepted")
    }

    /// The key keeps the bytes it validated even when the caller's buffer changes afterwards.
    func testImportedKeyDoesNotAliasTheCallersBuffer() throws {
        let buffer = NSMutableData(data: RSAVectors.publicKey)
        let key = try XCTUnwrap(SecKeyCreateWithData(buffer, rsaPublicAttributes as CFDictionary, nil))
        buffer.mutableBytes.storeBytes(of: 0x00, toByteOffset: buffer.length - 6, as: UInt8.self)  // modulus now even
        XCTAssertEqual(try external(key), RSAVectors.publicKey)
        XCTAssertNotNil(encryptOutcome(key, .rsaEncryptionRaw, Data([2])).value)
    }

    // MARK: - Leaks

    func testPrivateMaterialAppearsInNoDescriptionMessageOrUserInfo() throws {
        let key = try RSATestKeys.vectorKey()
        let parts = AttackDER.integers(RSAVectors.privateKey)
        // d, p, q, dP, dQ, qInv, and a slice of the private DER, as hex (both cases) and base64.
        var secrets: [String] = []
        for part in parts[3...] {
            let hex = hexString(Array(part.prefix(24)))
            secrets += [hex, hex.uppercased()]
            secrets.append(String(Data(part.prefix(24)).base64EncodedString().prefix(24)))
        }
        let derSlice = [UInt8](RSAVectors.privateKey[300..<332])
        secrets += [hexString(derSlice), hexString(derSlice).uppercased()]
        secrets.append(RSAVectors.privateKey.base64EncodedString())

        var texts: [String] = [key.description, key.debugDescription, String(reflecting: key), "\(key)"]
        var dumped = ""
        dump(key, to: &dumped)
        texts.append(dumped)
        var mirrorText = ""
        for child in Mirror(reflecting: key).children {
            mirrorText += "\(child.label ?? ""): \(child.value) \(String(reflecting: child.value))\n"
        }
        texts.append(mirrorText)

        // Errors from every RSA path with the private key.
        func errorText(_ body: (UnsafeMutablePointer<Unmanaged<CFError>?>) -> Any?) -> String {
            var error: Unmanaged<CFError>?
            _ = body(&error)
            guard let cfError = error?.takeRetainedValue() else { return "" }
            let info = CFErrorCopyUserInfo(cfError) as NSDictionary? ?? [:]
            return
                "\(cfError) \(String(describing: cfError)) \(cfError.localizedDescription) \(info) \(String(reflecting: info))"
        }
        texts.append(
            errorText { SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Data("m".utf8) as CFData, $0) })
        texts.append(
            errorText { SecKeyCreateSignature(key, .rsaSignatureRaw, Data(repeating: 0xFF, count: 256) as CFData, $0) })
        texts.append(
            errorText { SecKeyCreateSignature(key, .rsaSignatureDigestPSSSHA256, Data(count: 3) as CFData, $0) })
        texts.append(
            errorText { SecKeyCreateEncryptedData(key, .rsaEncryptionOAEPSHA256, Data("m".utf8) as CFData, $0) })
        texts.append(
            errorText {
                SecKeyCreateDecryptedData(key, .rsaEncryptionOAEPSHA384, Data(repeating: 3, count: 256) as CFData, $0)
            })
        texts.append(
            errorText {
                SecKeyCreateDecryptedData(
                    key, .rsaEncryptionOAEPSHA256AESGCM, Data(repeating: 3, count: 300) as CFData, $0)
            })
        texts.append(
            errorText {
                SecKeyVerifySignature(
                    key, .rsaSignatureMessagePSSSHA256, Data("m".utf8) as CFData, Data(count: 256) as CFData, $0)
            })
        texts.append(
            errorText { SecKeyCopyKeyExchangeResult(key, .ecdhKeyExchangeStandard, key, [:] as CFDictionary, $0) })
        var broken = RSAVectors.privateKey
        broken[broken.count - 5] ^= 1
        texts.append(errorText { SecKeyCreateWithData(broken as CFData, rsaPrivateAttributes as CFDictionary, $0) })
        texts.append(
            errorText { SecKeyCreateWithData(RSAVectors.privateKey as CFData, rsaPublicAttributes as CFDictionary, $0) }
        )

        // A stored key found again.
        XCTAssertEqual(
            SecItemAdd(
                [
                    kSecClass as String: kSecClassKey, kSecValueRef as String: key,
                    kSecAttrApplicationTag as String: Data("leak".utf8)
                ] as CFDictionary, nil), errSecSuccess)
        let found = try XCTUnwrap(copy(keyQuery(tag: "leak", [kSecReturnRef as String: true])).result as? SecKey)
        texts += [found.description, String(reflecting: found)]
        var foundDump = ""
        dump(found, to: &foundDump)
        texts.append(foundDump)

        for text in texts {
            for secret in secrets {
                XCTAssertFalse(text.contains(secret), "private key material in: \(text.prefix(300))")
            }
        }
    }

    // MARK: - Edited key items

    func testEditedKeyItemsNeverComeBackAsTheWrongKey() throws {
        let key = try RSATestKeys.vectorKey()
        let publicDER = RSAVectors.publicKey
        let privateDER = RSAVectors.privateKey
        func addItem(
            _ tag: String, type: Any = kSecAttrKeyTypeRSA, keyClass: Any, data: Data, _ extra: [String: Any] = [:]
        ) -> OSStatus {
            var item: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrKeyType as String: type,
                kSecAttrKeyClass as String: keyClass,
                kSecAttrApplicationTag as String: Data(tag.utf8), kSecValueData as String: data
            ]
            item.merge(extra) { $1 }
            return SecItemAdd(item as CFDictionary, nil)
        }
        // Public DER stored as a private key, private DER stored as a public key.
        XCTAssertEqual(addItem("pub-as-priv", keyClass: kSecAttrKeyClassPrivate, data: publicDER), errSecSuccess)
        XCTAssertEqual(copy(keyQuery(tag: "pub-as-priv", [kSecReturnRef as String: true])).status, errSecDecode)
        XCTAssertEqual(addItem("priv-as-pub", keyClass: kSecAttrKeyClassPublic, data: privateDER), errSecSuccess)
        XCTAssertEqual(copy(keyQuery(tag: "priv-as-pub", [kSecReturnRef as String: true])).status, errSecDecode)
        // EC type with RSA data, RSA type with EC data.
        XCTAssertEqual(
            addItem(
                "rsa-as-ec", type: kSecAttrKeyTypeECSECPrimeRandom, keyClass: kSecAttrKeyClassPrivate, data: privateDER),
            errSecSuccess)
        XCTAssertEqual(copy(keyQuery(tag: "rsa-as-ec", [kSecReturnRef as String: true])).status, errSecDecode)
        let ecKey = try makeKey()
        XCTAssertEqual(
            addItem("ec-as-rsa", keyClass: kSecAttrKeyClassPrivate, data: try external(ecKey)), errSecSuccess)
        XCTAssertEqual(copy(keyQuery(tag: "ec-as-rsa", [kSecReturnRef as String: true])).status, errSecDecode)
        // A private key with the symmetric class.
        XCTAssertEqual(addItem("priv-symmetric", keyClass: kSecAttrKeyClassSymmetric, data: privateDER), errSecSuccess)
        XCTAssertNotEqual(copy(keyQuery(tag: "priv-symmetric", [kSecReturnRef as String: true])).status, errSecSuccess)
        // A stored private key whose class is edited to public, or whose data is swapped for its public key.
        XCTAssertEqual(
            SecItemAdd(
                [
                    kSecClass as String: kSecClassKey, kSecValueRef as String: key,
                    kSecAttrApplicationTag as String: Data("edited".utf8)
                ] as CFDictionary, nil), errSecSuccess)
        XCTAssertEqual(
            update(keyQuery(tag: "edited"), [kSecAttrKeyClass as String: kSecAttrKeyClassPublic]), errSecSuccess)
        XCTAssertEqual(copy(keyQuery(tag: "edited", [kSecReturnRef as String: true])).status, errSecDecode)
        XCTAssertEqual(
            update(
                keyQuery(tag: "edited"),
                [kSecAttrKeyClass as String: kSecAttrKeyClassPrivate, kSecValueData as String: publicDER]),
            errSecSuccess)
        XCTAssertEqual(copy(keyQuery(tag: "edited", [kSecReturnRef as String: true])).status, errSecDecode)
        // A private-key ref added with an explicit public class.
        XCTAssertEqual(
            SecItemAdd(
                [
                    kSecClass as String: kSecClassKey, kSecValueRef as String: key,
                    kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
                    kSecAttrApplicationTag as String: Data("ref-public".utf8)
                ] as CFDictionary, nil), errSecSuccess)
        let refPublic = copy(keyQuery(tag: "ref-public", [kSecReturnRef as String: true]))
        if let found = refPublic.result as? SecKey {
            XCTFail("a private key stored with class public came back as \(found)")
        }
    }
}
#endif
