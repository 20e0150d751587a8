#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// Generates a new elliptic-curve or RSA key pair and returns its private key.
///
/// `parameters` needs `kSecAttrKeyType` = `kSecAttrKeyTypeECSECPrimeRandom` with
/// `kSecAttrKeySizeInBits` = 256, 384 or 521, or `kSecAttrKeyTypeRSA` with a size of 1024 to
/// 8192 bits in steps of 128 (2048, 3072 and 4096 are the usual ones; public exponent 65537).
/// Apple accepts RSA sizes of 512 to 8192 bits; this platform cannot make keys under 1024
/// bits or of sizes BoringSSL does not generate (not a multiple of 128). Attributes of each half may be given at the top
/// level or inside `kSecPrivateKeyAttrs` / `kSecPublicKeyAttrs` (those win):
/// `kSecAttrIsPermanent`, `kSecAttrApplicationTag`, `kSecAttrLabel`, `kSecAttrAccessGroup`,
/// `kSecAttrAccessible` or `kSecAttrAccessControl`, and the `kSecUse…` authentication keys.
///
/// - A **software key** lives in the returned object. With `kSecAttrIsPermanent` true the
///   private key is also stored as a key item, as `SecItemAdd` with `kSecValueRef` would store
///   it (data: X9.63 `04 ‖ X ‖ Y ‖ K`, or PKCS#1 DER `RSAPrivateKey` for RSA; attributes: class
///   private, type 73 or 42, size, application label = SHA-1 of the public key, tag, label, …),
///   so it can be found again with `SecItemCopyMatching` and `kSecReturnRef`. RSA keys are
///   always software keys.
/// - With `kSecAttrTokenID` = `kSecAttrTokenIDSecureEnclave` the key is **generated inside the
///   keychain** (P-256 or P-384), always stored — whatever `kSecAttrIsPermanent` says — under a
///   `…ThisDeviceOnly` accessibility (default `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`),
///   and its private scalar never leaves KeychainCore: the returned key signs, decrypts and
///   exchanges keys through the keychain. `kSecAttrAccessControl` becomes the key's access
///   policy; with `.privateKeyUsage` its constraints guard every use of the key (the keychain's
///   `Authenticator` is asked; the `kSecUseAuthenticationContext` given here is kept for that).
/// - With `kSecAttrIsPermanent` true in the public attributes, the public key is stored too.
///
/// - Returns: the private key, or `nil` with `error` set: `errSecParam` (-50) for a missing or
///   unknown key type, malformed attributes, `.privateKeyUsage` on a software key, P-521 or RSA
///   for a token key, and — as Apple's key-pair generation reports its size errors — a missing
///   or unsupported EC size or an RSA size outside 512…8192; `errSecUnimplemented` (-4) for
///   Ed25519 and the other key types this platform lacks, and RSA sizes Apple accepts that it
///   cannot generate (under 1024 bits, not a multiple of 128);
///   `errSecDuplicateItem` (-25299) when a permanent key's item exists already;
///   `errSecMissingEntitlement` (-34018), `errSecInteractionNotAllowed` (-25308) and the other
///   statuses of `SecItemAdd` when storing it fails.
public func SecKeyCreateRandomKey(_ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?)
    -> SecKey?
{
    SecKeyCall.run("SecKeyCreateRandomKey", error) { () throws(SecKeyFailure) -> SecKey in
        let parameters = try SecKeyParameters(parameters)
        let privateKey =
            parameters.isTokenKey
            ? try SecKeyGeneration.tokenKey(parameters)
            : try SecKeyGeneration.softwareKey(parameters)
        if SecKeyParameters.isPermanent(parameters.publicAttributes) {
            try SecKeyGeneration.storePublicKey(of: privateKey, parameters)
        }
        return privateKey
    }
}

/// The two ways ``SecKeyCreateRandomKey(_:_:)`` makes a key.
enum SecKeyGeneration {
    /// A software key, stored as a key item when permanent.
    static func softwareKey(_ parameters: SecKeyParameters) throws(SecKeyFailure) -> SecKey {
        let attributes = parameters.privateAttributes
        if let control = attributes["accc"] {
            guard let control = control as? SecAccessControl else {
                throw SecKeyFailure(errSecParam, "kSecAttrAccessControl must be a SecAccessControl.")
            }
            if control.flags.contains(.privateKeyUsage) {
                throw SecKeyFailure(
                    errSecParam,
                    "kSecAccessControlPrivateKeyUsage guards keys generated inside the keychain (add kSecAttrTokenID: kSecAttrTokenIDSecureEnclave); a software key's item is protected when its data is read, so drop .privateKeyUsage."
                )
            }
        }
        switch parameters.algorithm {
        case .ellipticCurve(let curve):
            let material = ECPrivateKeyMaterial.generate(curve)
            let key = try SecKey.softwarePrivate(material)
            guard let stored = try store(key, attributes) else { return key }
            return try SecKey.softwarePrivate(material, storedItem: stored)
        case .rsa(let bits):
            let material = try RSAPrivateKeyMaterial.generate(bits: bits)
            let key = SecKey.rsaPrivate(material)
            guard let stored = try store(key, attributes) else { return key }
            return SecKey.rsaPrivate(material, storedItem: stored)
        }
    }

    /// Adds a software private key as a key item when its attributes say `kSecAttrIsPermanent`.
    /// - Returns: the item it was stored as, or `nil` for an ephemeral key.
    private static func store(_ key: SecKey, _ attributes: [String: Any]) throws(SecKeyFailure) -> SecKey.StoredItem? {
        guard SecKeyParameters.isPermanent(attributes) else { return nil }
        let request = SecItemDictionary(SecKeyParameters.itemDictionary(attributes, adding: ["v_Ref": key]))
        let added = try SecKeyCall.engine { () throws(KeychainError) in try SecItemAddition.add(request) }
        return SecKey.StoredItem(added.item)
    }

    /// A key generated inside the keychain, through ``Keychain/generateTokenKey(_:attributes:policy:)``,
    /// with the access-group and protection rules of `SecItemAdd`.
    static func tokenKey(_ parameters: SecKeyParameters) throws(SecKeyFailure) -> SecKey {
        guard case .ellipticCurve(let curve) = parameters.algorithm else {
            throw SecKeyFailure(errSecParam, "Keys generated inside the keychain are EC keys.")
        }
        let request = SecItemDictionary(SecKeyParameters.itemDictionary(parameters.privateAttributes))
        return try SecKeyCall.engine { () throws(KeychainError) -> SecKey in
            try request.checkClientRules(allowsSkip: false)
            let group = try SecItemAccessGroups(identity: SecItemEnvironment.applicationIdentity)
                .writeGroup(explicit: request.attributes[.accessGroup])
            try request.checkParsed()
            if request.accessControl != nil && request.attributes[.accessible] != nil {
                throw KeychainError.accessibleAndAccessControlOnAdd()
            }
            if request.synchronizable == .value(true) {
                throw KeychainError.tokenKeyNotSynchronizable()
            }
            var attributes = request.attributes
            attributes[.accessGroup] = .string(group)
            if let control = request.accessControl { attributes[.accessible] = .string(control.accessibility.rawValue) }
            let keychain = try SecItemEnvironment.keychain()
            let item = try keychain.generateTokenKey(
                curve, attributes: attributes, policy: request.accessControl?.accessPolicy)
            let publicKey = try keychain.tokenKeyPublicKey(item.persistentReference)
            return .tokenPrivate(
                curve, publicKeyX963: publicKey, keychain: keychain, item: SecKey.StoredItem(item),
                authentication: request.authenticationOptions)
        }
    }

    /// Stores the public half as a key item (`kSecAttrIsPermanent` in the public attributes).
    /// When that fails, a private key stored by this call is deleted again, so the call has no
    /// effect.
    static func storePublicKey(of privateKey: SecKey, _ parameters: SecKeyParameters) throws(SecKeyFailure) {
        var attributes = parameters.publicAttributes
        attributes["tkid"] = nil
        let request = SecItemDictionary(
            SecKeyParameters.itemDictionary(attributes, adding: ["v_Ref": privateKey.publicHalf]))
        do {
            _ = try SecItemAddition.add(request)
        } catch {
            if let stored = privateKey.storedItem, let keychain = try? SecItemEnvironment.keychain() {
                _ = try? keychain.delete(Query(persistentReference: stored.reference))
            }
            throw SecKeyFailure(error)
        }
    }
}
#endif
