import Crypto
import Foundation
import SecureStorageFoundation

/// A circle key wrapped to one device's key-agreement key: an ephemeral X25519 agreement,
/// HKDF-SHA256 and AES-256-GCM, bound to the circle, the device and the generation, and signed
/// by the member that wrapped it.
///
/// Body: `ephemeral public key (32) ‖ generation (4) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`;
/// the plaintext is the 32-byte secret, the lowest manifest counter the recipient may accept
/// (so a new device cannot be shown a state older than the one its approver saw), and the
/// wrapping member's Ed25519 signature over both. The recipient checks the signature against
/// the roster: a new device against the member that admitted it, a member receiving a new
/// generation against the member whose removal made it. Anyone who knows a member's public
/// key (the server does) can wrap a key to it; nobody but a member can sign one.
enum KeyWrap {
    /// A key unwrapped, not yet checked against its signer.
    struct Unwrapped {
        /// The circle key.
        var key: CircleKey
        /// The lowest manifest counter the recipient may accept.
        var counterFloor: Int64
        /// The wrapping member's signature.
        var signature: Data
        /// The recipient's X25519 public key, which the signature covers.
        var recipientKey: Data
        /// The recipient.
        var device: UUID

        /// Whether the member with Ed25519 public key `signingKey` signed this wrap.
        func isSigned(by signingKey: Data) -> Bool {
            guard let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: signingKey) else { return false }
            return publicKey.isValidSignature(
                signature,
                for: KeyWrap.signedInput(key, counterFloor: counterFloor, recipientKey: recipientKey, device: device))
        }
    }

    /// What a wrap's signature covers: a label, the circle, the generation, the recipient and its
    /// public key, a hash of the secret, the counter floor.
    private static func signedInput(_ key: CircleKey, counterFloor: Int64, recipientKey: Data, device: UUID) -> Data {
        var input = ByteWriter()
        input.append(Data("keychain-sync wrap signature".utf8))
        input.append(key.circleID.bytes)
        input.append(bigEndian: key.generation)
        input.append(device.bytes)
        input.append(recipientKey)
        input.append(Data(SHA256.hash(data: key.secretBytes)))
        input.append(bigEndian: UInt64(bitPattern: counterFloor))
        return input.data
    }

    /// Wraps `key` for `device`, signed with `signer`.
    static func wrap(
        _ key: CircleKey, counterFloor: Int64, to recipient: Curve25519.KeyAgreement.PublicKey, device: UUID,
        signedBy signer: Curve25519.Signing.PrivateKey
    ) throws(SyncError) -> Data {
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        do {
            let wrapping = try wrappingKey(
                ephemeral.sharedSecretFromKeyAgreement(with: recipient),
                ephemeral: ephemeral.publicKey.rawRepresentation,
                recipient: recipient.rawRepresentation, circleID: key.circleID, device: device,
                generation: key.generation)
            var plaintext = key.secretBytes
            withUnsafeBytes(of: counterFloor.bigEndian) { plaintext.append(contentsOf: $0) }
            plaintext.append(
                try signer.signature(
                    for: signedInput(
                        key, counterFloor: counterFloor, recipientKey: recipient.rawRepresentation, device: device)))
            let sealed = try AES.GCM.seal(plaintext, using: wrapping)
            var body = ephemeral.publicKey.rawRepresentation
            withUnsafeBytes(of: key.generation.bigEndian) { body.append(contentsOf: $0) }
            body.append(contentsOf: sealed.nonce)
            body.append(sealed.ciphertext)
            body.append(sealed.tag)
            return body
        } catch {
            throw SyncError.circleKeyWrappingFailed
        }
    }

    /// The generation a wrap body names, before it is opened; `nil` for a body too short.
    static func generation(of body: Data) -> UInt32? {
        let bytes = Data(body)
        guard bytes.count >= 36 else { return nil }
        return bytes[32..<36].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// Unwraps a key wrapped to this device; the caller checks who signed it.
    /// - Throws: ``SyncError/Code/tampered`` when the body does not open with `privateKey` for this circle and device.
    static func unwrap(_ body: Data, with privateKey: Curve25519.KeyAgreement.PrivateKey, circleID: UUID, device: UUID)
        throws(SyncError) -> Unwrapped
    {
        let bytes = Data(body)
        guard bytes.count == 32 + 4 + 12 + 104 + 16, let generation = generation(of: bytes) else {
            throw SyncError.tampered("a wrapped circle key of the wrong size")
        }
        do {
            let ephemeral = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes[0..<32])
            let wrapping = try wrappingKey(
                privateKey.sharedSecretFromKeyAgreement(with: ephemeral), ephemeral: Data(bytes[0..<32]),
                recipient: privateKey.publicKey.rawRepresentation, circleID: circleID, device: device,
                generation: generation)
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: bytes[36..<48]), ciphertext: bytes[48..<152], tag: bytes[152...])
            let plaintext = Data(try AES.GCM.open(box, using: wrapping))
            let floor = plaintext[32..<40].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            return Unwrapped(
                key: CircleKey(
                    circleID: circleID, generation: generation, secret: SymmetricKey(data: plaintext.prefix(32))),
                counterFloor: floor, signature: Data(plaintext[40...]),
                recipientKey: privateKey.publicKey.rawRepresentation, device: device)
        } catch {
            throw SyncError.tampered("a wrapped circle key that does not open with this device's key")
        }
    }

    private static func wrappingKey(
        _ shared: SharedSecret, ephemeral: Data, recipient: Data, circleID: UUID, device: UUID, generation: UInt32
    ) -> SymmetricKey {
        var info = Data("keychain-sync wrap".utf8)
        info.append(ephemeral)
        info.append(recipient)
        info.append(device.bytes)
        withUnsafeBytes(of: generation.bigEndian) { info.append(contentsOf: $0) }
        return shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: circleID.bytes, sharedInfo: info, outputByteCount: 32)
    }
}
