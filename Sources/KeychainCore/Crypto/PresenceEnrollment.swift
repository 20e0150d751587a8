import Crypto
import Foundation
import SecureStorageFoundation

/// One enrolled authenticator's copy of the presence private key, as kept in the keybag
/// (slot `presence.<method>.<identifier in hex>`): AES-256-GCM under
/// HKDF-SHA256(secret, salt: vault id, info: "sv5/presence-enrolment" ‖ method ‖ identifier),
/// with the vault and slot as associated data. The header MAC covers the slot, so an
/// enrolment cannot be removed, added or swapped without the device key, and the format anchor
/// refuses an older keybag.
enum PresenceEnrollment {
    static func wrap(
        _ key: PresencePrivateKey, secret: AuthenticationSecret, method: AuthenticationMethod, vaultID: UUID
    ) throws(KeychainError) -> Data {
        do {
            return try AES.GCM.seal(
                key.key.rawRepresentation, using: wrappingKey(secret, method: method, vaultID: vaultID),
                authenticating: associatedData(method: method, identifier: secret.identifier, vaultID: vaultID)
            ).combined!
        } catch {
            throw KeychainError.presenceKeyWrappingFailed(error: error)
        }
    }

    /// - Throws: `.authFailed` when the secret does not open the enrolment (the authenticator
    ///   released the wrong secret: it is not the enrolled one, whatever it answered).
    static func unwrap(_ wrapped: Data, secret: AuthenticationSecret, method: AuthenticationMethod, vaultID: UUID)
        throws(KeychainError) -> PresencePrivateKey
    {
        do {
            let box = try AES.GCM.SealedBox(combined: wrapped)
            var raw = try AES.GCM.open(
                box, using: wrappingKey(secret, method: method, vaultID: vaultID),
                authenticating: associatedData(method: method, identifier: secret.identifier, vaultID: vaultID))
            defer { SecretWiping.wipe(&raw) }
            return PresencePrivateKey(key: try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw))
        } catch {
            throw KeychainError.releasedSecretDoesNotOpenEnrolment(method: method.rawValue)
        }
    }

    private static func wrappingKey(_ secret: AuthenticationSecret, method: AuthenticationMethod, vaultID: UUID)
        -> SymmetricKey
    {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: secret.keyMaterial, salt: vaultID.bytes,
            info: Data("sv5/presence-enrolment/\(method.rawValue)/".utf8) + secret.identifier, outputByteCount: 32)
    }

    private static func associatedData(method: AuthenticationMethod, identifier: Data, vaultID: UUID) -> Data {
        var writer = ByteWriter()
        writer.append(Data("SV5P".utf8))
        writer.append(vaultID.bytes)
        writer.appendLengthPrefixed(method.rawValue)
        writer.appendLengthPrefixed(identifier)
        return writer.data
    }
}
