import Crypto
import Foundation

/// What a joining device files on the server: its public keys and its name, the name sealed
/// under a key derived from the circle code (which members know and the server does not).
///
/// Body: `agreement key (32) ‖ signing key (32) ‖ sealed name`. The approval code is a digest of
/// all of it, so the member who approves it admits exactly these keys and this name.
struct JoinRequest: Sendable {
    /// The joining device's id.
    var requestID: UUID
    /// Its X25519 public key (raw).
    var agreementKey: Data
    /// Its Ed25519 public key (raw).
    var signingKey: Data
    /// Its name.
    var name: String

    /// The body to file, with the name sealed under the circle code's `verifier`.
    func body(circleID: UUID, verifier: Data) throws(SyncError) -> Data {
        do {
            // The key is this request's alone and only ever seals this name, so a fixed nonce is
            // safe, and filing the request again files the same body (and approval code).
            let sealed = try AES.GCM.seal(Data(name.utf8), using: Self.nameKey(circleID: circleID, verifier: verifier, requestID: requestID),
                                          nonce: AES.GCM.Nonce(data: Data(count: 12)))
            return agreementKey + signingKey + sealed.combined!
        } catch {
            throw SyncError(.invalidState, "The join request could not be sealed (AES-GCM failed).")
        }
    }

    /// Reads a filed body; the name opens only with the verifier of the circle code the device was given.
    /// - Throws: ``SyncError/Code/tampered`` for a body that is malformed or does not open.
    init(body: Data, requestID: UUID, circleID: UUID, verifier: Data) throws(SyncError) {
        let bytes = Data(body)
        guard bytes.count > 64 + 28 else { throw SyncError.tampered("a join request of the wrong size") }
        let plain: Data
        do {
            plain = try AES.GCM.open(AES.GCM.SealedBox(combined: bytes[64...]), using: Self.nameKey(circleID: circleID, verifier: verifier, requestID: requestID))
        } catch {
            throw SyncError.tampered("a join request made for another circle code (its name does not open)")
        }
        guard let name = String(data: plain, encoding: .utf8),
              (try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes[0..<32])) != nil,
              (try? Curve25519.Signing.PublicKey(rawRepresentation: bytes[32..<64])) != nil else {
            throw SyncError.tampered("a join request whose keys or name are invalid")
        }
        self.init(requestID: requestID, agreementKey: Data(bytes[0..<32]), signingKey: Data(bytes[32..<64]), name: name)
    }

    /// A request with these parts.
    init(requestID: UUID, agreementKey: Data, signingKey: Data, name: String) {
        self.requestID = requestID
        self.agreementKey = agreementKey
        self.signingKey = signingKey
        self.name = name
    }

    private static func nameKey(circleID: UUID, verifier: Data, requestID: UUID) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: verifier), salt: circleID.bytes,
                               info: Data("keychain-sync join request".utf8) + requestID.bytes, outputByteCount: 32)
    }
}
