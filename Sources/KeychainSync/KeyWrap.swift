import Crypto
import Foundation

/// A circle key wrapped to one device's key-agreement key: an ephemeral X25519 agreement,
/// HKDF-SHA256 and AES-256-GCM, bound to the circle, the device and the generation.
///
/// Body: `ephemeral public key (32) ‖ generation (4) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`;
/// the plaintext is the 32-byte secret, the lowest manifest counter the recipient may accept
/// (so a new device cannot be shown a state older than the one its approver saw), and for a new
/// generation the proof that a holder of the previous one made it (``rotationProof(of:by:)``;
/// zeros in the answer to a join, which the circle code vouches for instead).
enum KeyWrap {
    /// The MAC under the previous generation's key that vouches for a new generation: without
    /// it anyone who knows a member's public key (the server does) could wrap a key of their own.
    static func rotationProof(of next: CircleKey, by previous: CircleKey) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: rotationInput(next), using: previous.manifestKey))
    }

    /// Whether `proof` shows that a holder of `previous` made `next`.
    static func isValidRotationProof(_ proof: Data, of next: CircleKey, by previous: CircleKey) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(proof, authenticating: rotationInput(next), using: previous.manifestKey)
    }

    /// What a rotation proof MACs: a label, the circle, the new generation, a hash of its secret.
    private static func rotationInput(_ next: CircleKey) -> Data {
        var input = Data("keychain-sync rotation".utf8)
        input.append(next.circleID.bytes)
        withUnsafeBytes(of: next.generation.bigEndian) { input.append(contentsOf: $0) }
        input.append(Data(SHA256.hash(data: next.secretBytes)))
        return input
    }

    /// Wraps `key` for `device`, with `proof` (32 bytes) when it is a new generation.
    static func wrap(_ key: CircleKey, counterFloor: Int64, proof: Data = Data(count: 32), to recipient: Curve25519.KeyAgreement.PublicKey,
                     device: UUID) throws(SyncError) -> Data {
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        do {
            let wrapping = try wrappingKey(ephemeral.sharedSecretFromKeyAgreement(with: recipient), ephemeral: ephemeral.publicKey.rawRepresentation,
                                           recipient: recipient.rawRepresentation, circleID: key.circleID, device: device, generation: key.generation)
            var plaintext = key.secretBytes
            withUnsafeBytes(of: counterFloor.bigEndian) { plaintext.append(contentsOf: $0) }
            plaintext.append(proof.count == 32 ? proof : Data(count: 32))
            let sealed = try AES.GCM.seal(plaintext, using: wrapping)
            var body = ephemeral.publicKey.rawRepresentation
            withUnsafeBytes(of: key.generation.bigEndian) { body.append(contentsOf: $0) }
            body.append(contentsOf: sealed.nonce)
            body.append(sealed.ciphertext)
            body.append(sealed.tag)
            return body
        } catch {
            throw SyncError(.invalidState, "The circle key could not be wrapped for the new device (its public key is invalid).")
        }
    }

    /// Unwraps a key wrapped to this device.
    /// - Throws: ``SyncError/Code/tampered`` when the body does not open with `privateKey` for this circle and device.
    static func unwrap(_ body: Data, with privateKey: Curve25519.KeyAgreement.PrivateKey, circleID: UUID,
                       device: UUID) throws(SyncError) -> (key: CircleKey, counterFloor: Int64, proof: Data) {
        let bytes = Data(body)
        guard bytes.count == 32 + 4 + 12 + 72 + 16 else { throw SyncError.tampered("a wrapped circle key of the wrong size") }
        let generation = bytes[32..<36].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        do {
            let ephemeral = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes[0..<32])
            let wrapping = try wrappingKey(privateKey.sharedSecretFromKeyAgreement(with: ephemeral), ephemeral: Data(bytes[0..<32]),
                                           recipient: privateKey.publicKey.rawRepresentation, circleID: circleID, device: device, generation: generation)
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: bytes[36..<48]), ciphertext: bytes[48..<120], tag: bytes[120...])
            let plaintext = Data(try AES.GCM.open(box, using: wrapping))
            let floor = plaintext[32..<40].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            return (CircleKey(circleID: circleID, generation: generation, secret: SymmetricKey(data: plaintext.prefix(32))), floor, Data(plaintext[40...]))
        } catch {
            throw SyncError.tampered("a wrapped circle key that does not open with this device's key")
        }
    }

    private static func wrappingKey(_ shared: SharedSecret, ephemeral: Data, recipient: Data, circleID: UUID, device: UUID, generation: UInt32) -> SymmetricKey {
        var info = Data("keychain-sync wrap".utf8)
        info.append(ephemeral)
        info.append(recipient)
        info.append(device.bytes)
        withUnsafeBytes(of: generation.bigEndian) { info.append(contentsOf: $0) }
        return shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: circleID.bytes, sharedInfo: info, outputByteCount: 32)
    }
}
