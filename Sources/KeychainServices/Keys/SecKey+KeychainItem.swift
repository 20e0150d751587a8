#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

extension SecKey.StoredItem {
    /// The item a key was found as or stored in: its reference and attributes, without the
    /// item digest (`sha1`, derived from the data).
    init(_ item: FoundItem) {
        self.init(
            reference: item.persistentReference, attributes: item.attributes.filter { $0.key != .sha1 },
            accessPolicy: item.accessPolicy)
    }
}

/// Keys as keychain items (`kSecClassKey`): the SecKey a found item stands for
/// (`kSecReturnRef`), the item a SecKey is added as, and the filters that find a SecKey's item
/// (`kSecValueRef` in a search).
extension SecKey {
    /// The key a key item holds.
    ///
    /// A key generated inside the keychain (token ID `com.apple.setoken`) becomes a reference to
    /// it with its public key; any other EC key item is read from its data: X9.63 `04 ‖ X ‖ Y ‖ K`
    /// for a private key (`kcls` 1), `04 ‖ X ‖ Y` for a public key (`kcls` 0); an RSA key item
    /// (`type` 42) from its PKCS#1 DER `RSAPrivateKey` or `RSAPublicKey`. `item` must carry
    /// its attributes, and its data unless it is a keychain-generated key.
    ///
    /// - Throws: `.unimplemented` (-4) for symmetric and other key types this platform has no
    ///   SecKey for, and RSA keys it cannot use (under 1024 bits); `.integrityViolation`
    ///   (`errSecDecode`, -26275) when the item's data is not the key its attributes describe.
    static func fromItem(_ item: FoundItem, keychain: Keychain, authentication: AuthenticationOptions)
        throws(KeychainError) -> SecKey
    {
        let attributes = item.attributes
        let stored = StoredItem(item)
        if TokenKeys.isTokenKey(item.itemClass, attributes) {
            guard let bits = attributes[.keySizeInBits]?.numberValue,
                let curve = EllipticCurve(keySizeInBits: Int(bits))
            else {
                throw KeychainError.tokenKeyWithoutKeySize()
            }
            let publicKey = try keychain.tokenKeyPublicKey(item.persistentReference)
            return .tokenPrivate(
                curve, publicKeyX963: publicKey, keychain: keychain, item: stored, authentication: authentication)
        }
        let type = attributes[.type]?.numberValue ?? 0
        if type == RSAPublicKeyMaterial.keyType {
            return try rsaFromItem(item, stored: stored)
        }
        guard type == TokenKeys.ecKeyType else {
            if (105...111).contains(type) {
                throw KeychainError.keyTypeWithoutSecKey(type: type)
            }
            throw KeychainError.unknownKeyType(type: type)
        }
        let keyClass = attributes[.keyClass]?.numberValue ?? 0
        guard keyClass == 0 || keyClass == 1 else {
            throw KeychainError.symmetricKeyWithoutSecKey()
        }
        let data = item.data ?? Data()
        guard let curve = EllipticCurve.of(x963ByteCount: data.count, isPrivate: keyClass == 1) else {
            throw KeychainError.invalidECKeyData(isPrivate: keyClass == 1)
        }
        do {
            return try decode(data, curve: curve, isPrivate: keyClass == 1, storedItem: stored)
        } catch {
            throw KeychainError.invalidECKey(reason: error.message)
        }
    }

    /// The RSA key of an RSA key item (`kcls` 1: `RSAPrivateKey`, 0: `RSAPublicKey`).
    private static func rsaFromItem(_ item: FoundItem, stored: StoredItem) throws(KeychainError) -> SecKey {
        let keyClass = item.attributes[.keyClass]?.numberValue ?? 0
        guard keyClass == 0 || keyClass == 1 else {
            throw KeychainError.symmetricKeyWithoutSecKey()
        }
        let data = item.data ?? Data()
        do throws(SecKeyFailure) {
            return keyClass == 1
                ? .rsaPrivate(try RSAPrivateKeyMaterial(pkcs1: data), storedItem: stored)
                : .rsaPublic(try RSAPublicKeyMaterial(pkcs1: data), storedItem: stored)
        } catch  where error.status == errSecUnimplemented {
            throw KeychainError.unusableRSAKey(reason: error.message)
        } catch {
            throw KeychainError.invalidRSAKeyData(isPrivate: keyClass == 1)
        }
    }

    /// Reads an X9.63 key whose layout (curve and half) is already known from its size.
    /// - Throws: `errSecDecode` when the point is not on the curve or the private scalar does
    ///   not belong to the public key in front of it.
    static func decode(_ data: Data, curve: EllipticCurve, isPrivate: Bool, storedItem: StoredItem? = nil)
        throws(SecKeyFailure) -> SecKey
    {
        let publicPart = Data(data.prefix(curve.publicKeyByteCount))
        guard curve.isValidPublicKey(publicPart) else {
            throw SecKeyFailure(
                errSecDecode,
                "The data is not an uncompressed X9.63 point (04 ‖ X ‖ Y) on the \(curve.rawValue)-bit curve.")
        }
        guard isPrivate else { return .publicKey(curve, x963: publicPart, storedItem: storedItem) }
        let material: ECPrivateKeyMaterial
        do {
            material = try ECPrivateKeyMaterial(curve: curve, scalar: Data(data.suffix(curve.coordinateByteCount)))
        } catch {
            throw SecKeyFailure(errSecDecode, "The data does not hold a valid \(curve.rawValue)-bit EC private key.")
        }
        let key = try softwarePrivate(material, storedItem: storedItem)
        guard key.publicKeyX963 == publicPart else {
            throw SecKeyFailure(
                errSecDecode, "The private key does not belong to the public key in front of it (04 ‖ X ‖ Y ‖ K).")
        }
        return key
    }

    /// The attributes and data this key is stored with when added as an item
    /// (`kSecValueRef` in `SecItemAdd`, `kSecAttrIsPermanent`): Apple's attributes of a local
    /// key — class, application label (SHA-1 of the public key), type (73 EC, 42 RSA), size,
    /// usage flags (those of ``SecKeyCopyAttributes(_:)``) — and the external representation
    /// (X9.63, or PKCS#1 DER for RSA) as data.
    ///
    /// - Throws: `.duplicateItem` (-25299) for a key generated inside the keychain: it is
    ///   stored already and cannot be added again.
    func itemForAdding() throws(KeychainError) -> (attributes: [AttributeKey: AttributeValue], data: Data) {
        let isPrivate: Bool
        let data: Data
        switch kind {
        case .tokenPrivate:
            throw KeychainError.tokenKeyAlreadyStored()
        case .publicKey:
            (isPrivate, data) = (false, publicKeyX963)
        case .softwarePrivate(let material):
            do { data = try material.x963Representation() } catch {
                throw KeychainError.invalidECPrivateKey()
            }
            isPrivate = true
        case .rsaPrivate(let material):
            (isPrivate, data) = (true, material.pkcs1)
        case .rsaPublic(let material):
            (isPrivate, data) = (false, material.pkcs1)
        }
        let isRSA = rsaPublicMaterial != nil
        let bits = AttributeValue.number(Int64(keySizeInBits))
        let flag = { (value: Bool) in AttributeValue.number(value ? 1 : 0) }
        let attributes: [AttributeKey: AttributeValue] = [
            .keyClass: flag(isPrivate), .applicationLabel: .data(applicationLabel), .type: .number(keyType),
            .keySizeInBits: bits, .effectiveKeySize: bits, .isPermanent: 1, .isPrivate: 1, .isModifiable: 1,
            .isSensitive: 0, .wasAlwaysSensitive: 0, .isExtractable: 1, .wasNeverExtractable: 0,
            .canEncrypt: flag(!isPrivate), .canDecrypt: flag(isPrivate || isRSA), .canDerive: flag(isPrivate && !isRSA),
            .canSign: flag(isPrivate), .canVerify: flag(!isPrivate), .canSignRecover: 0, .canVerifyRecover: 0,
            .canWrap: flag(!isPrivate), .canUnwrap: flag(isPrivate)
        ]
        return (attributes, data)
    }

    /// How a search finds this key's item (`kSecValueRef` in `SecItemCopyMatching`,
    /// `SecItemUpdate`, `SecItemDelete`): a key that came from the keychain by its persistent
    /// reference; any other by its class, type and application label.
    var itemFilter: (reference: PersistentReference?, attributes: [AttributeKey: AttributeValue]) {
        if let storedItem { return (storedItem.reference, [:]) }
        return (
            nil,
            [.keyClass: .number(isPrivate ? 1 : 0), .type: .number(keyType), .applicationLabel: .data(applicationLabel)]
        )
    }
}
#endif
