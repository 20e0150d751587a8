import Foundation
#if canImport(CTSS2)
import CTSS2
#endif

/// What the keychain stores as the secret data of a token key that lives in a TPM: the TPM's
/// wrapped blob and the key's authorization value, never the private key (the TPM has it).
///
/// Layout: `"STPK"` ‖ version 1 ‖ primary name length (2, big-endian) ‖ name ‖ authorization
/// length (1) ‖ authorization ‖ blob length (2) ‖ blob (`TPM2B_PUBLIC ‖ TPM2B_PRIVATE`).
/// Stored encrypted like any item secret, so using the key needs what reading the item needs
/// (the class key, and the authentication its access control asks for) as well as the TPM.
struct TPMTokenKeyRecord {
    private static let magic = Data("STPK".utf8)
    var primaryName: Data
    var authorization: Data
    var blob: Data

    var encoded: Data {
        var bytes = Self.magic
        bytes.append(1)
        bytes.append(contentsOf: [UInt8(primaryName.count >> 8), UInt8(primaryName.count & 0xff)])
        bytes.append(primaryName)
        bytes.append(UInt8(authorization.count))
        bytes.append(authorization)
        bytes.append(contentsOf: [UInt8(blob.count >> 8), UInt8(blob.count & 0xff)])
        bytes.append(blob)
        return bytes
    }

    /// Decodes a stored record; `nil` when the bytes are not one.
    init?(encoded bytes: Data) {
        var cursor = bytes[...]
        guard cursor.prefix(4) == Self.magic, cursor.count > 5, cursor[cursor.startIndex + 4] == 1 else { return nil }
        cursor = cursor.dropFirst(5)
        func field(lengthBytes: Int) -> Data? {
            guard cursor.count >= lengthBytes else { return nil }
            let length = cursor.prefix(lengthBytes).reduce(0) { $0 << 8 | Int($1) }
            cursor = cursor.dropFirst(lengthBytes)
            guard cursor.count >= length else { return nil }
            defer { cursor = cursor.dropFirst(length) }
            return Data(cursor.prefix(length))
        }
        guard let name = field(lengthBytes: 2), let authorization = field(lengthBytes: 1), let blob = field(lengthBytes: 2),
              cursor.isEmpty, !name.isEmpty, !blob.isEmpty else { return nil }
        self.init(primaryName: name, authorization: authorization, blob: blob)
    }

    init(primaryName: Data, authorization: Data, blob: Data) {
        self.primaryName = primaryName
        self.authorization = authorization
        self.blob = blob
    }

    /// Generates a P-256 key in `device`.
    /// - Returns: the record to store and the key's X9.63 public key.
    static func generate(on device: TPMDevice) throws(KeychainError) -> (TPMTokenKeyRecord, Data) {
        #if canImport(CTSS2)
        do {
            let (key, publicKey) = try TPMSigningKey.generate(on: device)
            return (TPMTokenKeyRecord(primaryName: key.primaryName, authorization: key.authorization, blob: try key.blob.marshalled()), publicKey)
        } catch {
            throw keychainError(error, device: device)
        }
        #else
        throw KeychainError(.unimplemented, "This build of SecureStorage has no TPM support.")
        #endif
    }

    /// A DER ECDSA signature of `digest`, computed by the TPM.
    func signature(forDigest digest: Data, on device: TPMDevice?) throws(KeychainError) -> Data {
        #if canImport(CTSS2)
        let (key, device) = try loaded(device)
        do { return try key.signature(forDigest: digest, on: device) } catch { throw Self.keychainError(error, device: device) }
        #else
        throw KeychainError(.unimplemented, "This build of SecureStorage has no TPM support, and the key lives in a TPM.")
        #endif
    }

    /// The raw ECDH shared secret with a peer's X9.63 public key, computed by the TPM.
    func sharedSecret(withPeerX963 peer: Data, on device: TPMDevice?) throws(KeychainError) -> Data {
        #if canImport(CTSS2)
        let (key, device) = try loaded(device)
        do { return try key.sharedSecret(withPeerX963: peer, on: device) } catch { throw Self.keychainError(error, device: device) }
        #else
        throw KeychainError(.unimplemented, "This build of SecureStorage has no TPM support, and the key lives in a TPM.")
        #endif
    }

    #if canImport(CTSS2)
    private func loaded(_ device: TPMDevice?) throws(KeychainError) -> (TPMSigningKey, TPMDevice) {
        guard let device else {
            throw KeychainError(.keychainUnavailable, "The key lives in a TPM, and this process uses none: set \(TPMDevice.environmentVariable), or give this user access to \(TPMDevice.kernelResourceManager).")
        }
        guard let object = TPMObjectBlob(marshalled: blob) else { throw .tampered("a TPM key's stored blob is damaged") }
        return (TPMSigningKey(primaryName: primaryName, authorization: authorization, blob: object), device)
    }

    private static func keychainError(_ failure: TPMFailure, device: TPMDevice) -> KeychainError {
        if failure.isInvalidPoint {
            return KeychainError(.invalidParameter, "The peer's public key is not a point on P-256.")
        }
        if failure.isForeignObject {
            return KeychainError(.keychainUnavailable, "The key lives in another TPM (this keychain was copied from another machine, or this TPM was cleared); it cannot be used here.")
        }
        if failure.isAuthorizationFailure {
            return .tampered("the TPM refused a key's stored authorization value")
        }
        if failure.isUnreachable {
            return KeychainError(.keychainUnavailable, failure.explanation ?? "The TPM at \(device.tcti) cannot be reached (\(failure.decoded)).")
        }
        return KeychainError(.keychainUnavailable, "\(failure) at \(device.tcti).")
    }
    #endif
}
