import Foundation
#if canImport(CTSS2)
import CTSS2
import SecureStorageFoundation
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
        var bytes = ByteWriter(capacity: 10 + primaryName.count + authorization.count + blob.count)
        bytes.append(Self.magic)
        bytes.append(1)
        bytes.append(bigEndian: UInt16(primaryName.count))
        bytes.append(primaryName)
        bytes.append(UInt8(authorization.count))
        bytes.append(authorization)
        bytes.append(bigEndian: UInt16(blob.count))
        bytes.append(blob)
        return bytes.data
    }

    /// Decodes a stored record; `nil` when the bytes are not one.
    init?(encoded bytes: Data) {
        var reader = ByteReader(bytes)
        defer { reader.wipe() }
        guard reader.readBytes(4) == Self.magic, reader.readByte() == 1,
            let nameLength = reader.readBigEndian(UInt16.self), let name = reader.readBytes(Int(nameLength)),
            let authorizationLength = reader.readByte(), let authorization = reader.readBytes(Int(authorizationLength)),
            let blobLength = reader.readBigEndian(UInt16.self), let blob = reader.readBytes(Int(blobLength)),
            reader.isAtEnd, !name.isEmpty, !blob.isEmpty
        else { return nil }
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
            return (
                TPMTokenKeyRecord(
                    primaryName: key.primaryName, authorization: key.authorization, blob: try key.blob.marshalled()),
                publicKey
            )
        } catch {
            throw keychainError(error, device: device)
        }
        #else
        throw KeychainError.noTPMSupport()
        #endif
    }

    /// A DER ECDSA signature of `digest`, computed by the TPM.
    func signature(forDigest digest: Data, on device: TPMDevice?) throws(KeychainError) -> Data {
        #if canImport(CTSS2)
        try using(device) { (key, device) throws(TPMFailure) in try key.signature(forDigest: digest, on: device) }
        #else
        throw Self.noTPMSupport
        #endif
    }

    /// The raw ECDH shared secret with a peer's X9.63 public key, computed by the TPM.
    func sharedSecret(withPeerX963 peer: Data, on device: TPMDevice?) throws(KeychainError) -> Data {
        #if canImport(CTSS2)
        try using(device) { (key, device) throws(TPMFailure) in try key.sharedSecret(withPeerX963: peer, on: device) }
        #else
        throw Self.noTPMSupport
        #endif
    }

    #if !canImport(CTSS2)
    private static let noTPMSupport = KeychainError.tokenKeyNeedsTPMSupport()
    #endif

    #if canImport(CTSS2)
    /// Runs `operation` with the key on `device`, its failures told as keychain errors.
    private func using<R>(_ device: TPMDevice?, _ operation: (TPMSigningKey, TPMDevice) throws(TPMFailure) -> R)
        throws(KeychainError) -> R
    {
        guard let device else {
            throw KeychainError.tokenKeyNeedsTPM()
        }
        guard CTSS2_load() == 1 else {
            throw KeychainError.tokenKeyTPMNotLoaded(tpmResponse: String(cString: Tss2_RC_Decode(CTSS2_RC_NOT_LOADED)))
        }
        guard let object = TPMObjectBlob(marshalled: blob) else { throw KeychainError.tamperedTPMKeyBlob() }
        do {
            return try operation(
                TPMSigningKey(primaryName: primaryName, authorization: authorization, blob: object), device)
        } catch {
            throw Self.keychainError(error, device: device)
        }
    }

    private static func keychainError(_ failure: TPMFailure, device: TPMDevice) -> KeychainError {
        if failure.isInvalidPoint {
            return KeychainError.peerKeyNotOnCurve()
        }
        if failure.isForeignObject {
            return KeychainError.tokenKeyInAnotherTPM()
        }
        if failure.isAuthorizationFailure {
            return KeychainError.tamperedTPMKeyAuthorization()
        }
        if failure.isUnreachable {
            return KeychainError.tpmKeyUnreachable(failure: failure, tcti: device.tcti)
        }
        return KeychainError.tpmFailed(failure: failure, tcti: device.tcti)
    }
    #endif
}
