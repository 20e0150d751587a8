import Crypto
import Foundation

/// Keys generated inside the keychain ("token keys", Apple's Secure Enclave keys off Apple
/// platforms), never returned in any form.
///
/// In a keychain bound to a TPM (``Keychain/deviceBinding``), a P-256 token key is generated
/// inside the TPM: the item stores only the TPM's wrapped blob and the key's authorization
/// value, and signing and key agreement run in the TPM. Otherwise (no TPM, keys generated before
/// binding, P-384) the private scalar is created here and stored as the secret half of a key
/// item bound to this device. ``storage(of:)`` tells which.
public enum TokenKeys {
    /// Where the private half of a token key lives.
    public enum Storage: String, Sendable, Hashable {
        /// In the keychain, encrypted under its class key (used in this process's memory).
        case software
        /// In the TPM the keychain is bound to (the keychain stores only its wrapped blob).
        case tpm
    }

    /// The attribute (`"ssks"`, a SecureStorage addition) saying where a token key's private
    /// half lives: `"tpm"` or `"software"`. Keys generated before TPM support have none and are
    /// software keys; results always carry it for token keys.
    public static let storageAttribute: AttributeKey = "ssks"

    /// Where the private half of a token key with these attributes lives; `nil` for other items.
    public static func storage(of attributes: [AttributeKey: AttributeValue]) -> Storage? {
        guard attributes[.tokenID]?.stringValue == tokenID else { return nil }
        return attributes[storageAttribute]?.stringValue.flatMap(Storage.init(rawValue:)) ?? .software
    }

    /// The token ID of such keys: `kSecAttrTokenIDSecureEnclave`.
    public static let tokenID = "com.apple.setoken"
    /// `kSecAttrKeyTypeECSECPrimeRandom`.
    public static let ecKeyType: Int64 = 73

    /// Where the X9.63 public key of a key generated inside the keychain is kept in its
    /// (encrypted) attributes, so that reading it needs no authentication even when the private
    /// scalar is sealed to the presence key. Never returned to callers.
    static let publicKeyAttribute: AttributeKey = "tkpk"

    /// Whether an item with these attributes is a key generated inside the keychain.
    public static func isTokenKey(_ itemClass: ItemClass, _ attributes: [AttributeKey: AttributeValue]) -> Bool {
        itemClass == .key && attributes[.tokenID]?.stringValue == tokenID
    }
}

extension Keychain {
    /// Generates a private EC key inside the keychain, or inside its TPM when the keychain is
    /// bound to one and the curve is P-256, and stores it as a permanent key item.
    ///
    /// The item gets the key attributes Apple gives a Secure Enclave key: class private (`kcls`
    /// 1), type 73, the curve's size, application label = SHA-1 of the X9.63 public key, token
    /// ID `com.apple.setoken`, permanent, sensitive, not extractable, usable to sign, derive and
    /// decrypt. `attributes` may add an application tag, label, access group and a
    /// `ThisDeviceOnly` accessibility (default `whenUnlockedThisDeviceOnly`); `policy` may guard
    /// its use (``AccessPolicy/Flags/privateKeyUsage``). The item's ``TokenKeys/storageAttribute``
    /// says where the key lives.
    ///
    /// ```swift
    /// let key = try keychain.generateTokenKey(.p256, attributes: [.applicationTag: .data(Data("com.acme.signing".utf8))])
    /// let signature = try keychain.signWithTokenKey(key.persistentReference, digest: Data(SHA256.hash(data: message)))
    /// ```
    ///
    /// - Returns: the stored item with its attributes.
    /// - Throws: `.duplicateItem` when an identical key item exists, `.invalidParameter` for an
    ///   accessibility that is not `ThisDeviceOnly` or attributes a key cannot have.
    @discardableResult
    public func generateTokenKey(
        _ curve: EllipticCurve, attributes: [AttributeKey: AttributeValue] = [:],
        policy: AccessPolicy? = nil
    ) throws(KeychainError) -> FoundItem {
        guard curve != .p521 else {
            throw KeychainError.tokenKeyCurveUnsupported()
        }
        let storage: TokenKeys.Storage
        let publicKey: Data
        let secret: Data
        if case .tpm(let device, _) = deviceBinding, curve == .p256 {
            let (record, tpmPublicKey) = try TPMTokenKeyRecord.generate(on: device)
            (storage, publicKey, secret) = (.tpm, tpmPublicKey, record.encoded)
        } else {
            let material = ECPrivateKeyMaterial.generate(curve)
            do { publicKey = try material.publicKeyX963() } catch { throw KeychainError.ecKeyGenerationFailed() }
            (storage, secret) = (.software, material.scalar)
        }
        var item = NewItem(.key, attributes: attributes, data: secret)
        if let policy { item = item.protected(by: policy) }
        if let accessibility = item.accessibility, !accessibility.isThisDeviceOnly {
            throw KeychainError.tokenKeyNotThisDeviceOnly(accessibility: accessibility.rawValue)
        }
        let fixed: [AttributeKey: AttributeValue] = [
            .keyClass: 1, .type: .number(TokenKeys.ecKeyType), .keySizeInBits: .number(Int64(curve.rawValue)),
            .effectiveKeySize: .number(Int64(curve.rawValue)),
            .applicationLabel: .data(Data(Insecure.SHA1.hash(data: publicKey))),
            .tokenID: .string(TokenKeys.tokenID), .isPermanent: 1, .isPrivate: 1, .isModifiable: 1, .isSensitive: 1,
            .wasAlwaysSensitive: 1, .isExtractable: 0, .wasNeverExtractable: 1, .canSign: 1, .canDerive: 1,
            .canDecrypt: 1,
            .canEncrypt: 0, .canVerify: 0, .canWrap: 0, .canUnwrap: 0, .canSignRecover: 0, .canVerifyRecover: 0
        ]
        item.attributes.merge(fixed) { _, generated in generated }
        item.attributes[.accessible] =
            item.attributes[.accessible] ?? .string(Accessibility.whenUnlockedThisDeviceOnly.rawValue)
        var prepared = try prepareForAdd(item, now: Date(), allowingTokenKey: true)
        prepared.attributes[TokenKeys.publicKeyAttribute] = .data(publicKey)
        prepared.attributes[TokenKeys.storageAttribute] = .string(storage.rawValue)
        let stored = try write { db in
            try self.insert(prepared.itemClass, attributes: prepared.attributes, data: prepared.data, db)
        }
        logger.debug(
            "generated a key inside the keychain",
            metadata: ["bits": "\(curve.rawValue)", "storage": "\(storage.rawValue)"])
        return result(stored, returning: [.attributes, .persistentReference])
    }

    /// The X9.63 public key (`04 ‖ X ‖ Y`) of a key generated inside the keychain. Needs no
    /// authentication.
    /// - Throws: `.itemNotFound`, `.invalidParameter` when the item is not such a key,
    ///   `.interactionNotAllowed` when its class is locked.
    public func tokenKeyPublicKey(_ reference: PersistentReference) throws(KeychainError) -> Data {
        let item = try tokenKeyItem(reference)
        if let publicKey = item.attributes[TokenKeys.publicKeyAttribute]?.dataValue { return publicKey }
        if item.row.sealed.isPresenceSealed { throw KeychainError.tamperedProtectedKeyPublicKey() }
        // Keys generated before the public key was kept: derive it (their scalar is not sealed
        // to the presence key).
        guard
            case .software(let material) = try tokenKeyMaterial(
                reference, operation: nil, authentication: AuthenticationOptions())
        else {
            throw KeychainError.tamperedTPMKeyPublicKey()
        }
        do { return try material.publicKeyX963() } catch { throw KeychainError.tamperedStoredPrivateKey() }
    }

    /// Signs a digest with a key generated inside the keychain (ECDSA, DER-encoded X9.62
    /// signature), after the authentication its ``AccessPolicy`` asks for.
    /// - Throws: as ``tokenKeyPublicKey(_:)``, plus `.userCanceled`, `.authFailed` and
    ///   `.interactionNotAllowed` from authentication.
    public func signWithTokenKey(
        _ reference: PersistentReference, digest: Data,
        authentication: AuthenticationOptions = AuthenticationOptions()
    ) throws(KeychainError) -> Data {
        switch try tokenKeyMaterial(reference, operation: "private key", authentication: authentication) {
        case .software(let material): try material.signature(forDigest: digest)
        case .tpm(let record): try record.signature(forDigest: digest, on: options.tpm)
        }
    }

    /// The raw ECDH shared secret of a key generated inside the keychain and a peer's X9.63
    /// public key, after the authentication its ``AccessPolicy`` asks for.
    public func keyAgreementWithTokenKey(
        _ reference: PersistentReference, peerPublicKey: Data,
        authentication: AuthenticationOptions = AuthenticationOptions()
    ) throws(KeychainError) -> Data {
        switch try tokenKeyMaterial(reference, operation: "private key", authentication: authentication) {
        case .software(let material): try material.sharedSecret(withPeerX963: peerPublicKey)
        case .tpm(let record): try record.sharedSecret(withPeerX963: peerPublicKey, on: options.tpm)
        }
    }

    /// The attributes of the key generated inside the keychain that `reference` names.
    private func tokenKeyItem(_ reference: PersistentReference) throws(KeychainError) -> OpenedItem {
        guard reference.itemClass == .key else {
            throw KeychainError.referenceNotAKey(itemClass: reference.itemClass.rawValue)
        }
        let item = try read { db -> OpenedItem in
            guard
                let item = try self.matchingItems(
                    ResolvedQuery(Query(persistentReference: reference)), limit: 1, proof: .attributes, db
                ).first?.opened
            else {
                throw KeychainError.itemNotFound()
            }
            return item
        }
        guard item.isTokenKey else {
            throw KeychainError.notATokenKey()
        }
        return item
    }

    /// A token key's private half as stored: its scalar, or its TPM blob.
    private enum StoredTokenKey {
        case software(ECPrivateKeyMaterial)
        case tpm(TPMTokenKeyRecord)
    }

    /// Loads a token key's private half; with an operation, authenticates its use first.
    private func tokenKeyMaterial(
        _ reference: PersistentReference, operation: String?,
        authentication: AuthenticationOptions
    ) throws(KeychainError) -> StoredTokenKey {
        var item = try tokenKeyItem(reference)
        guard let bits = item.attributes[.keySizeInBits]?.numberValue,
            let curve = EllipticCurve(keySizeInBits: Int(bits))
        else {
            throw KeychainError.notATokenKey()
        }
        // Any constraint on a token key guards its use (its data is never read).
        try requireIntactPresence(item)
        var presenceKey: PresencePrivateKey?
        if operation != nil, let policy = item.accessPolicy, policy.requiresAuthentication {
            guard let granted = try authorize(policy, operation: "private key", options: authentication) else {
                throw KeychainError.keyUseNeedsAuthentication()
            }
            presenceKey = granted.presenceKey
        }
        try openData(of: &item, presenceKey: presenceKey)
        if TokenKeys.storage(of: item.attributes) == .tpm {
            guard curve == .p256, let record = TPMTokenKeyRecord(encoded: item.data ?? Data()) else {
                throw KeychainError.tamperedTPMKeyBlob()
            }
            return .tpm(record)
        }
        do {
            return .software(try ECPrivateKeyMaterial(curve: curve, scalar: item.data ?? Data()))
        } catch {
            throw KeychainError.tamperedStoredPrivateKey()
        }
    }
}
