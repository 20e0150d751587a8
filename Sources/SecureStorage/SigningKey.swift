import Crypto
import Foundation
import KeychainServices

/// A P-256 signing key whose private part never leaves secure hardware: the Secure Enclave on
/// Apple platforms, and off them a key generated inside the keychain engine that only ever signs
/// there (a "token key": KeychainServices' article "Access Control"). Apps keep the tag and the public key; the private key
/// is used by name.
///
/// ```swift
/// let key = try SigningKey.create(tag: "com.acme.device-attestation", requireUserPresence: true)
/// let signature = try key.sign(Data("challenge".utf8))      // prompts when requireUserPresence
/// server.register(publicKey: key.publicKey)                 // X9.63, 65 bytes
/// assert(key.isValidSignature(signature, for: Data("challenge".utf8)))
/// try key.delete()
/// ```
///
/// Both platforms go through the same SecKey calls (`SecKeyCreateRandomKey` with
/// `kSecAttrTokenIDSecureEnclave`), which on Apple platforms is the Secure Enclave key CryptoKit's
/// `SecureEnclave.P256` also uses, stored in the Keychain so it can be found again by tag.
/// Signatures are ECDSA P-256 over SHA-256, DER-encoded (X9.62), verifiable with CryptoKit's or
/// swift-crypto's `P256.Signing.PublicKey`.
public struct SigningKey: Sendable, Hashable, CustomStringConvertible {
    /// The application tag the key is stored under (`kSecAttrApplicationTag`).
    public let tag: String
    /// The access group of the key, or `nil` for the app's default group.
    public let accessGroup: String?
    /// The public key, ANSI X9.63 uncompressed (`04 ‖ X ‖ Y`, 65 bytes).
    public let publicKey: Data

    /// Creates a new key inside the secure hardware and stores it under `tag`.
    ///
    /// - Parameters:
    ///   - tag: the key's application tag, by which ``find(tag:accessGroup:)`` finds it again.
    ///   - requireUserPresence: each signature needs the user (biometry or passcode; off Apple
    ///     platforms, the keychain's authenticator), as `[.privateKeyUsage, .userPresence]`.
    ///   - accessGroup: the access group to store it in.
    /// - Throws: ``SecureStorageError/duplicate`` when a key with this tag exists;
    ///   ``SecureStorageError/authenticationFailed`` when `requireUserPresence` is asked for and
    ///   nothing can authenticate the user; other keychain errors.
    public static func create(tag: String, requireUserPresence: Bool = false, accessGroup: String? = nil)
        throws(SecureStorageError) -> SigningKey
    {
        if try find(tag: tag, accessGroup: accessGroup) != nil { throw .duplicate }
        let flags: SecAccessControlCreateFlags =
            requireUserPresence ? [.privateKeyUsage, .userPresence] : [.privateKeyUsage]
        guard
            let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)
        else {
            throw .underlying(errSecParam)
        }
        var privateAttributes: [String: Any] = [
            kSecAttrIsPermanent as String: true,
            kSecAttrApplicationTag as String: Data(tag.utf8),
            kSecAttrAccessControl as String: control
        ]
        if let accessGroup { privateAttributes[kSecAttrAccessGroup as String] = accessGroup }
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs as String: privateAttributes
        ]
        var error: Unmanaged<CFError>?
        guard let privateKey = SecKeyCreateRandomKey(parameters as CFDictionary, &error) else {
            throw Self.error(error)
        }
        return try SigningKey(tag: tag, accessGroup: accessGroup, privateKey: privateKey)
    }

    /// The key stored under `tag`, or `nil` when there is none. Never prompts.
    public static func find(tag: String, accessGroup: String? = nil) throws(SecureStorageError) -> SigningKey? {
        guard let privateKey = try privateKey(tag: tag, accessGroup: accessGroup, prompt: nil) else { return nil }
        return try SigningKey(tag: tag, accessGroup: accessGroup, privateKey: privateKey)
    }

    private init(tag: String, accessGroup: String?, privateKey: SecKey) throws(SecureStorageError) {
        var error: Unmanaged<CFError>?
        guard let publicKey = SecKeyCopyPublicKey(privateKey),
            let bytes = SecKeyCopyExternalRepresentation(publicKey, &error) as Data?
        else { throw Self.error(error) }
        self.tag = tag
        self.accessGroup = accessGroup
        self.publicKey = bytes
    }

    /// Signs `message` (ECDSA P-256, SHA-256, DER) inside the secure hardware.
    /// - Parameters:
    ///   - message: the bytes to sign; they are hashed with SHA-256.
    ///   - reason: shown to the user when the key needs user presence.
    /// - Throws: ``SecureStorageError/notFound`` when the key was deleted,
    ///   ``SecureStorageError/userCanceled`` or ``SecureStorageError/authenticationFailed`` from
    ///   authentication, ``SecureStorageError/locked`` while the device is locked.
    public func sign(_ message: Data, reason: String = "Sign with your device key") throws(SecureStorageError) -> Data {
        guard let privateKey = try Self.privateKey(tag: tag, accessGroup: accessGroup, prompt: reason) else {
            throw .notFound
        }
        var error: Unmanaged<CFError>?
        // The key under the tag must still be this key, not one stored there since.
        guard let current = SecKeyCopyPublicKey(privateKey),
            SecKeyCopyExternalRepresentation(current, &error) as Data? == publicKey
        else {
            throw .notFound
        }
        guard
            let signature = SecKeyCreateSignature(
                privateKey, .ecdsaSignatureMessageX962SHA256, message as CFData, &error) as Data?
        else {
            throw Self.error(error)
        }
        return signature
    }

    /// Whether `signature` (DER ECDSA P-256 over SHA-256) was made by this key over `message`.
    public func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        guard let key = try? P256.Signing.PublicKey(x963Representation: publicKey),
            let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature)
        else { return false }
        return key.isValidSignature(parsed, for: message)
    }

    /// Deletes the key from the keychain; signatures made with it stay verifiable with ``publicKey``.
    /// - Returns: `false` when it was already gone.
    @discardableResult
    public func delete() throws(SecureStorageError) -> Bool {
        let outcome = SecItemOutcome.of {
            SecItemDelete(Self.query(tag: tag, accessGroup: accessGroup) as CFDictionary)
        }
        if outcome.status == errSecItemNotFound { return false }
        if let error = outcome.error { throw error }
        return true
    }

    /// `SigningKey(tag: …)`.
    public var description: String { "SigningKey(tag: \(tag)\(accessGroup.map { ", accessGroup: \($0)" } ?? ""))" }

    // MARK: - Keychain

    private static func query(tag: String, accessGroup: String?) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrApplicationTag as String: Data(tag.utf8),
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private static func privateKey(tag: String, accessGroup: String?, prompt: String?) throws(SecureStorageError)
        -> SecKey?
    {
        var query = query(tag: tag, accessGroup: accessGroup)
        query[kSecReturnRef as String] = true
        if let prompt { query[kSecUseOperationPrompt as String] = prompt }
        var result: CFTypeRef?
        let outcome = SecItemOutcome.of { SecItemCopyMatching(query as CFDictionary, &result) }
        if outcome.status == errSecItemNotFound { return nil }
        if let error = outcome.error { throw error }
        guard let result, CFGetTypeID(result) == SecKeyGetTypeID() else { throw .underlying(errSecInternalComponent) }
        return (result as! SecKey)
    }

    private static func error(_ error: Unmanaged<CFError>?) -> SecureStorageError {
        guard let error = error?.takeRetainedValue() else { return .underlying(errSecInternalComponent) }
        let code = OSStatus(truncatingIfNeeded: CFErrorGetCode(error))
        #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
        // The portable SecKey functions put the engine's message in the error's description.
        let message = (CFErrorCopyUserInfo(error) as NSDictionary?)?[NSLocalizedDescriptionKey] as? String
        #else
        let message: String? = nil
        #endif
        return (SecureStorageError(status: code) ?? .underlying(code)).explained(message)
    }
}
