#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import SecureStorageFoundation

/// The RSA encodings that `_RSA` does not offer for caller-supplied digests or for SHA-224,
/// SHA-384 and SHA-512 OAEP: EMSA-PKCS1-v1_5, EMSA-PSS, EME-OAEP, EME-PKCS1-v1_5 decoding and
/// MGF1, as PKCS#1 v2.2 (RFC 8017) defines them. Only byte strings are handled here; the RSA
/// operations themselves are the system libcrypto's (public, ``RSAPublicOperation``) and
/// swift-crypto's BoringSSL (private).
enum RSAPadding {
    typealias Hash = SecKeyAlgorithmMeaning.Hash

    // MARK: - EMSA-PKCS1-v1_5

    /// The DER of each hash's AlgorithmIdentifier OID (tag, length, value).
    static func oid(_ hash: Hash) -> [UInt8] {
        switch hash {
        case .sha1: [0x06, 0x05, 0x2B, 0x0E, 0x03, 0x02, 0x1A]
        case .sha224: [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04]
        case .sha256: [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
        case .sha384: [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02]
        case .sha512: [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03]
        }
    }

    /// `00 01 FF…FF 00 ‖ T` of `length` bytes, where T is the DigestInfo of `digest` under
    /// `hash`, or `digest` itself when `hash` is `nil` (`…DigestPKCS1v15Raw`).
    ///
    /// As Apple's encoder does, the DigestInfo takes the digest at whatever length it has
    /// (Apple does not check it against the hash), with single-byte DER lengths.
    /// - Returns: `nil` when T does not fit: more than `length - 11` bytes, or a DigestInfo of
    ///   127 bytes or more.
    static func emsaPKCS1v15(digest: Data, hash: Hash?, length: Int) -> Data? {
        var t = Data()
        if let hash {
            let oid = oid(hash)
            let total = 2 + 2 + (oid.count - 2) + 2 + 2 + digest.count + 2
            guard total < 127 else { return nil }
            t =
                Data([0x30, UInt8(total - 2), 0x30, UInt8(oid.count + 2)]) + oid + [
                    0x05, 0x00, 0x04, UInt8(digest.count)
                ] + digest
        } else {
            t = digest
        }
        guard length >= 11, t.count <= length - 11 else { return nil }
        return Data([0x00, 0x01]) + Data(repeating: 0xFF, count: length - 3 - t.count) + [0x00] + t
    }

    // MARK: - MGF1

    /// MGF1 with `hash`: `length` bytes from `seed`.
    static func mgf1(_ hash: Hash, seed: Data, length: Int) -> Data {
        var output = Data(capacity: length + hash.byteCount)
        var counter: UInt32 = 0
        while output.count < length {
            output += hash.digest(seed + withUnsafeBytes(of: counter.bigEndian) { Data($0) })
            counter += 1
        }
        return output.prefix(length)
    }

    // MARK: - EMSA-PSS

    /// EMSA-PSS-ENCODE of `digest` for a modulus of `modulusBits` bits, with MGF1 of the same
    /// hash and `salt` (as long as the digest, as Apple uses), left-padded with a zero byte to
    /// the modulus size when the encoding is one byte shorter.
    /// - Returns: `nil` when the digest has the wrong size or the modulus is too small.
    static func emsaPSS(digest: Data, hash: Hash, salt: Data, modulusBits: Int) -> Data? {
        let hLen = hash.byteCount
        let emBits = modulusBits - 1
        let emLen = (emBits + 7) / 8
        guard digest.count == hLen, emBits >= 8 * hLen + 8 * salt.count + 9, emLen >= hLen + salt.count + 2 else {
            return nil
        }
        let h = hash.digest(Data(count: 8) + digest + salt)
        var db = Data(count: emLen - salt.count - hLen - 2) + [0x01] + salt
        let mask = mgf1(hash, seed: h, length: emLen - hLen - 1)
        for index in db.indices { db[index] ^= mask[mask.startIndex + index] }
        db[0] &= 0xFF >> (8 * emLen - emBits)
        let encoded = db + h + [0xBC]
        let modulusBytes = (modulusBits + 7) / 8
        return Data(count: modulusBytes - encoded.count) + encoded
    }

    /// EMSA-PSS-VERIFY: whether `encoded` (the public operation on a signature, the modulus
    /// size) is the PSS encoding of `digest`, with MGF1 of the same hash and a salt as long as
    /// the digest.
    static func isPSSEncoding(_ encoded: Data, of digest: Data, hash: Hash, modulusBits: Int) -> Bool {
        let hLen = hash.byteCount
        let sLen = hLen
        let emBits = modulusBits - 1
        let emLen = (emBits + 7) / 8
        guard digest.count == hLen, emLen >= hLen + sLen + 2, encoded.count >= emLen else { return false }
        guard encoded.prefix(encoded.count - emLen).allSatisfy({ $0 == 0 }) else { return false }
        let em = Data(encoded.suffix(emLen))
        guard em.last == 0xBC else { return false }
        let topBits = 8 * emLen - emBits
        var db = Data(em.prefix(emLen - hLen - 1))
        let h = Data(em[(emLen - hLen - 1)..<(emLen - 1)])
        guard topBits == 0 || db[0] & ~(0xFF >> topBits) == 0 else { return false }
        let mask = mgf1(hash, seed: h, length: db.count)
        for index in db.indices { db[index] ^= mask[mask.startIndex + index] }
        db[0] &= 0xFF >> topBits
        let zeros = emLen - hLen - sLen - 2
        guard db.prefix(zeros).allSatisfy({ $0 == 0 }), db[zeros] == 0x01 else { return false }
        let salt = db.suffix(sLen)
        return hash.digest(Data(count: 8) + digest + salt) == h
    }

    // MARK: - EME-OAEP

    /// EME-OAEP encoding of `message` (empty label) for a modulus of `length` bytes.
    /// - Returns: `nil` when the message is longer than `length - 2 × digest size - 2`.
    static func oaepEncode(_ message: Data, hash: Hash, length: Int) -> Data? {
        let hLen = hash.byteCount
        guard length >= 2 * hLen + 2, message.count <= length - 2 * hLen - 2 else { return nil }
        var db = hash.digest(Data()) + Data(count: length - message.count - 2 * hLen - 2) + [0x01] + message
        var seed = randomBytes(hLen)
        let dbMask = mgf1(hash, seed: seed, length: db.count)
        for index in db.indices { db[index] ^= dbMask[dbMask.startIndex + index] }
        let seedMask = mgf1(hash, seed: db, length: hLen)
        for index in seed.indices { seed[index] ^= seedMask[seedMask.startIndex + index] }
        return Data([0x00]) + seed + db
    }

    /// EME-OAEP decoding (empty label) of `encoded` (the modulus size). The checks run over the
    /// whole block before one verdict, so that timing does not tell which check failed.
    /// - Returns: `nil` when it is not such an encoding.
    static func oaepDecode(_ encoded: Data, hash: Hash) -> Data? {
        let hLen = hash.byteCount
        var em = [UInt8](encoded)
        defer { _ = SecretWiping.wipe(&em) }
        guard em.count >= 2 * hLen + 2 else { return nil }
        var seed = Array(em[1...hLen])
        var db = Array(em[(hLen + 1)...])
        defer { _ = SecretWiping.wipe(&seed) }
        let seedMask = [UInt8](mgf1(hash, seed: Data(db), length: hLen))
        for index in seed.indices { seed[index] ^= seedMask[index] }
        let dbMask = [UInt8](mgf1(hash, seed: Data(seed), length: db.count))
        for index in db.indices { db[index] ^= dbMask[index] }
        defer { _ = SecretWiping.wipe(&db) }
        let lHash = [UInt8](hash.digest(Data()))
        var bad = em[0]
        for index in 0..<hLen { bad |= db[index] ^ lHash[index] }
        // Find the 0x01 after the zero padding without branching on the bytes.
        var looking: UInt8 = 1
        var separator = 0
        for index in hLen..<db.count {
            let byte = db[index]
            let isOne: UInt8 = byte == 1 ? 1 : 0
            let isZero: UInt8 = byte == 0 ? 1 : 0
            let found = looking & isOne
            separator |= index & -Int(found)
            bad |= looking & ~isZero & ~isOne & 1
            looking &= ~isOne & 1
        }
        bad |= looking
        guard bad == 0 else { return nil }
        return Data(db[(separator + 1)...])
    }

    // MARK: - EME-PKCS1-v1_5 decoding of a public operation

    /// EME-PKCS1-v1_5 decoding of `encoded` (`00 02 PS 00 M`, at least 8 padding bytes), for
    /// what a *public* key "decrypts" (Apple's public keys decrypt with their public
    /// operation); private keys decrypt through BoringSSL.
    static func pkcs1v15EncryptionDecode(_ encoded: Data) -> Data? {
        let bytes = [UInt8](encoded)
        guard bytes.count >= 11, bytes[0] == 0x00, bytes[1] == 0x02,
            let zero = bytes[2...].firstIndex(of: 0x00), zero >= 10
        else { return nil }
        return Data(bytes[(zero + 1)...])
    }

    /// `count` random bytes from the system's generator (session keys among them: the
    /// intermediate buffer is wiped).
    static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        defer { _ = SecretWiping.wipe(&bytes) }
        return Data(bytes)
    }
}
#endif
