#if canImport(CTSS2)
import CTSS2
import Crypto
import Foundation
import SecureStorageFoundation

/// A P-256 key generated inside a TPM and usable there only: the private scalar never leaves
/// the chip. What the keychain stores is the TPM's wrapped blob, which no other TPM can load,
/// and the key's authorization value, without which this TPM refuses to use it.
///
/// The key signs (ECDSA) and agrees keys (ECDH), as a Secure Enclave key does. It is `noDA`:
/// its authorization value is 32 random bytes, so a wrong one is an attack on the stored item,
/// not a guess to rate-limit.
struct TPMSigningKey {
    var primaryName: Data
    var authorization: Data
    var blob: TPMObjectBlob

    /// Generates a key inside the TPM with a fresh random authorization value.
    static func generate(on device: TPMDevice) throws(TPMFailure) -> (key: TPMSigningKey, publicKeyX963: Data) {
        try TPMConnection.with(device) { (tpm: TPMConnection) throws(TPMFailure) -> (TPMSigningKey, Data) in
            let primary = try tpm.storagePrimaryKey()
            // Signs and agrees keys, as a Secure Enclave key does.
            let template = TPM2B_PUBLIC.p256(
                TPMA_OBJECT(TPMA_OBJECT_SIGN_ENCRYPT | TPMA_OBJECT_DECRYPT), storageKey: false)
            var authorization = Data(count: 32)
            var generator = SystemRandomNumberGenerator()
            // Never a trailing zero: the TPM strips trailing zeros of authorization values.
            for index in authorization.indices { authorization[index] = UInt8.random(in: 1...255, using: &generator) }
            var sensitive = TPM2B_SENSITIVE_CREATE()
            try setTPMBytes(
                &sensitive.sensitive.userAuth.buffer, size: &sensitive.sensitive.userAuth.size, authorization)
            let blob = try tpm.create(
                template, sensitive: &sensitive, under: primary.handle, "Generating a P-256 key in the TPM")
            let point = blob.publicArea.publicArea.unique.ecc
            let publicKey =
                Data([0x04]) + leftPadded(tpmBytes(of: point.x.buffer, count: Int(point.x.size)), to: 32)
                + leftPadded(tpmBytes(of: point.y.buffer, count: Int(point.y.size)), to: 32)
            let key = TPMSigningKey(primaryName: primary.name, authorization: authorization, blob: blob)
            return (key, publicKey)
        }
    }

    /// An ECDSA signature (DER, X9.62) of a digest, computed by the TPM.
    ///
    /// ECDSA on P-256 signs the leftmost 256 bits of a digest read as an integer, so a shorter
    /// digest (SHA-1, SHA-224) is left-padded with zeros and a longer one (SHA-384, SHA-512) cut
    /// to its first 32 bytes: the same signature a software implementation computes, through
    /// the TPM's SHA-256 scheme.
    func signature(forDigest digest: Data, on device: TPMDevice) throws(TPMFailure) -> Data {
        let digest = digest.count > 32 ? Data(digest.prefix(32)) : leftPadded(digest, to: 32)
        return try TPMConnection.with(device) { (tpm: TPMConnection) throws(TPMFailure) -> Data in
            let key = try loaded(in: tpm)
            // The key's authorization value is proven by an HMAC, never sent (a password session
            // would put it on the bus, where a sniffer could replay it).
            let session = try tpm.session(boundTo: key, encrypting: false)
            var message = TPM2B_DIGEST()
            try setTPMBytes(&message.buffer, size: &message.size, digest)
            var scheme = TPMT_SIG_SCHEME()
            scheme.scheme = TPM2_ALG_ID(TPM2_ALG_ECDSA)
            scheme.details.ecdsa.hashAlg = TPM2_ALG_ID(TPM2_ALG_SHA256)
            var validation = TPMT_TK_HASHCHECK()
            validation.tag = TPM2_ST(TPM2_ST_HASHCHECK)
            validation.hierarchy = TPMI_RH_HIERARCHY(TPM2_RH_NULL)
            var signature: UnsafeMutablePointer<TPMT_SIGNATURE>?
            try tpmCheck(
                Esys_Sign(
                    tpm.context, key, session, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                    &message, &scheme, &validation, &signature), "Signing with the TPM key")
            defer { Esys_Free(signature) }
            guard let ecdsa = signature?.pointee.signature.ecdsa else {
                throw TPMFailure(code: 0x101, operation: "Signing with the TPM key")
            }
            let raw =
                leftPadded(tpmBytes(of: ecdsa.signatureR.buffer, count: Int(ecdsa.signatureR.size)), to: 32)
                + leftPadded(tpmBytes(of: ecdsa.signatureS.buffer, count: Int(ecdsa.signatureS.size)), to: 32)
            do {
                return try P256.Signing.ECDSASignature(rawRepresentation: raw).derRepresentation
            } catch {
                throw TPMFailure(code: 0x101, operation: "Encoding the TPM's signature")
            }
        }
    }

    /// The raw ECDH shared secret (the x coordinate, 32 bytes) with a peer's X9.63 public key,
    /// computed by the TPM; the response travels encrypted.
    func sharedSecret(withPeerX963 peer: Data, on device: TPMDevice) throws(TPMFailure) -> Data {
        guard peer.count == 65, peer.first == 0x04 else {
            throw TPMFailure(
                code: CTSS2_RC_ECC_POINT | 0x140,
                operation: "Reading the peer's public key (an uncompressed P-256 point of 65 bytes)")
        }
        return try TPMConnection.with(device) { (tpm: TPMConnection) throws(TPMFailure) -> Data in
            let key = try loaded(in: tpm)
            var point = TPM2B_ECC_POINT()
            try setTPMBytes(&point.point.x.buffer, size: &point.point.x.size, peer.dropFirst().prefix(32))
            try setTPMBytes(&point.point.y.buffer, size: &point.point.y.size, peer.suffix(32))
            point.size = UInt16(2 + 32 + 2 + 32)
            // The shared secret comes back encrypted under the key's (secret) authorization value.
            let session = try tpm.session(boundTo: key, encrypting: true)
            var shared: UnsafeMutablePointer<TPM2B_ECC_POINT>?
            try tpmCheck(
                Esys_ECDH_ZGen(
                    tpm.context, key, session, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &point, &shared),
                "Agreeing a key with the TPM key")
            guard let shared else { throw TPMFailure(code: 0x101, operation: "Agreeing a key with the TPM key") }
            defer {
                SecretWiping.wipe(bytesOf: &shared.pointee)
                Esys_Free(shared)
            }
            return leftPadded(
                tpmBytes(of: shared.pointee.point.x.buffer, count: Int(shared.pointee.point.x.size)), to: 32)
        }
    }

    /// Loads the key under this TPM's storage primary key, after checking that primary is the one that wrapped it.
    private func loaded(in tpm: TPMConnection) throws(TPMFailure) -> ESYS_TR {
        let primary = try tpm.storagePrimaryKey(named: primaryName, wrapping: "the key")
        return try tpm.load(blob, under: primary, authorization: authorization)
    }
}
#endif
