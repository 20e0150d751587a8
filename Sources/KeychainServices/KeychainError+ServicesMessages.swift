// Every message of a KeychainError that KeychainServices raises, in one place. Factories take
// only what a message may name (attribute keys, class names, access groups), never values.

import KeychainCore

extension KeychainError {
    // MARK: - Certificates

    /// `.unimplemented`: `key` needs certificate trust evaluation.
    package static func certificateTrustUnsupported(key: String) -> KeychainError {
        KeychainError(.unimplemented, "\(key) needs certificate trust evaluation, which this platform does not provide yet.")
    }

    /// `.unimplemented`: `key` applies to certificates and identities only.
    package static func certificateOnlyKey(key: String) -> KeychainError {
        KeychainError(.unimplemented, "\(key) applies to certificates and identities only.")
    }

    // MARK: - General

    /// `.noSuchAttribute`: A dictionary key is a number (`key`), which names no attribute.
    package static func dictionaryKeyNumberNames(key: Any) -> KeychainError {
        KeychainError(.noSuchAttribute, "A dictionary key is a number (\(key)), which names no attribute.")
    }

    /// `.noSuchClass`: '`name`' is not a keychain item class; use one of the kSecClass… constants.
    package static func keychainItemClassUse(name: String) -> KeychainError {
        KeychainError(.noSuchClass, "'\(name)' is not a keychain item class; use one of the kSecClass… constants.")
    }

    /// `.noSuchClass`: kSecValuePersistentRef names kSecClassAppleSharePassword, which this
    /// keychain does not store.
    package static func kSecValuePersistentRefNamesKSecClassAppleSharePasswordKeychain() -> KeychainError {
        KeychainError(.noSuchClass, "kSecValuePersistentRef names kSecClassAppleSharePassword, which this keychain does not store.")
    }

    /// `.noSuchAttribute`: The attribute `key` does not exist for `itemClass` items
    /// (errSecNoSuchAttr).
    package static func attributeDoesExistItems(key: String, itemClass: String) -> KeychainError {
        KeychainError(.noSuchAttribute, "The attribute \(key) does not exist for \(itemClass) items (errSecNoSuchAttr).")
    }

    /// `.invalidParameter`: The value of `key` is a fractional number; keychain numbers are
    /// integers.
    package static func valueFractionalNumberKeychain(key: String) -> KeychainError {
        KeychainError(.invalidParameter, "The value of \(key) is a fractional number; keychain numbers are integers.")
    }

    /// `.invalidParameter`: The value of `key` has an unsupported type (`type`); use a string,
    /// data, number, boolean or date.
    package static func valueUnsupportedTypeUse(key: String, type: Any.Type) -> KeychainError {
        KeychainError(.invalidParameter, "The value of \(key) has an unsupported type (\(type)); use a string, data, number, boolean or date.")
    }

    /// `.noSuchAttribute`: A key of attributesToUpdate is a number (`key`), which names no
    /// attribute.
    package static func keyAttributesToUpdateNumberNames(key: Any) -> KeychainError {
        KeychainError(.noSuchAttribute, "A key of attributesToUpdate is a number (\(key)), which names no attribute.")
    }

    /// `.noSuchAttribute`: `key` is not an attribute and cannot be updated (errSecNoSuchAttr).
    package static func attributeUpdatedErrSecNoSuchAttr(key: String) -> KeychainError {
        KeychainError(.noSuchAttribute, "\(key) is not an attribute and cannot be updated (errSecNoSuchAttr).")
    }

    /// `.missingEntitlement`: Client has neither application-identifier nor keychain-access-groups
    /// entitlements.
    package static func noEntitlements() -> KeychainError {
        KeychainError(.missingEntitlement, "Client has neither application-identifier nor keychain-access-groups entitlements. Set KEYCHAIN_APPLICATION_IDENTIFIER or SecItemEnvironment.applicationIdentity.")
    }

    /// `.missingEntitlement`: Client explicitly specifies access group `group` but is only entitled
    /// for `entitledGroups`.
    package static func accessGroupNotEntitled(group: String, entitledGroups: [String]) -> KeychainError {
        KeychainError(.missingEntitlement, "Client explicitly specifies access group \(group) but is only entitled for \(entitledGroups). Add it to KEYCHAIN_ACCESS_GROUPS or SecItemEnvironment.applicationIdentity.")
    }

    /// `.keychainUnavailable`: Cannot create the simulated device's keychain directory `directory`:
    /// `reason`
    package static func simulatedDeviceDirectoryCreationFailed(directory: String, reason: String) -> KeychainError {
        KeychainError(.keychainUnavailable, "Cannot create the simulated device's keychain directory \(directory): \(reason)")
    }

    /// `.invalidParameter`: `variable`: unknown word '`word`'.
    package static func simulatedDeviceUnknownWord(variable: String, word: String) -> KeychainError {
        KeychainError(.invalidParameter, "\(variable): unknown word '\(word)'. Use passcode[=approve|deny|cancel], biometry[=approve|deny|cancel|none], biometry-set=NAME, locked.")
    }

    /// `.invalidParameter`: `variable`: biometry needs a passcode, as on Apple devices; add the
    /// word passcode.
    package static func biometryNeedsPasscodeApple(variable: String) -> KeychainError {
        KeychainError(.invalidParameter, "\(variable): biometry needs a passcode, as on Apple devices; add the word passcode.")
    }

    /// `.invalidParameter`: `variable`: a device without a passcode cannot be locked; add the word
    /// passcode.
    package static func deviceWithoutPasscodeLocked(variable: String) -> KeychainError {
        KeychainError(.invalidParameter, "\(variable): a device without a passcode cannot be locked; add the word passcode.")
    }

    /// `.invalidParameter`: `variable`: '`word`': the answer is approve, deny or cancel.
    package static func simulatedDeviceUnknownAnswer(variable: String, word: String) -> KeychainError {
        KeychainError(.invalidParameter, "\(variable): '\(word)': the answer is approve, deny or cancel.")
    }

    /// `.keychainUnavailable`: `fileVariable`: cannot read `path` (at most 4 KiB of text).
    package static func simulatedDeviceFileUnreadable(fileVariable: String, path: String) -> KeychainError {
        KeychainError(.keychainUnavailable, "\(fileVariable): cannot read \(path) (at most 4 KiB of text).")
    }

    /// `.unimplemented`: kSecReturnRef for certificates and identities needs
    /// SecCertificate/SecIdentity, which this platform does not provide yet.
    package static func kSecReturnRefCertificatesIdentitiesNeeds() -> KeychainError {
        KeychainError(.unimplemented, "kSecReturnRef for certificates and identities needs SecCertificate/SecIdentity, which this platform does not provide yet. Ask for kSecReturnData or kSecReturnPersistentRef.")
    }

    /// `.itemNotFound`: No internet password for that host or its subdomains.
    package static func noInternetPasswordForHost() -> KeychainError {
        KeychainError(.itemNotFound, "No internet password for that host or its subdomains.")
    }

    /// `.unimplemented`: `key` needs certificate parsing, which this platform does not provide yet.
    package static func needsCertificateParsingPlatform(key: String) -> KeychainError {
        KeychainError(.unimplemented, "\(key) needs certificate parsing, which this platform does not provide yet.")
    }

    /// `.unimplemented`: kSecMatchHostOrSubdomainOfHost applies to internet passwords only.
    package static func kSecMatchHostOrSubdomainOfHostAppliesInternetPasswords() -> KeychainError {
        KeychainError(.unimplemented, "kSecMatchHostOrSubdomainOfHost applies to internet passwords only.")
    }

    /// `.unimplemented`: kSecReturnRef for certificates needs SecCertificate, which this platform
    /// does not provide yet; the item was added.
    package static func kSecReturnRefCertificatesNeedsSecCertificate() -> KeychainError {
        KeychainError(.unimplemented, "kSecReturnRef for certificates needs SecCertificate, which this platform does not provide yet; the item was added.")
    }

    // MARK: - Keys

    /// `.integrityViolation`: A key generated inside the keychain has no supported key size.
    package static func keyGeneratedInsideKeychainSupported() -> KeychainError {
        KeychainError(.integrityViolation, "A key generated inside the keychain has no supported key size.")
    }

    /// `.unimplemented`: The key item holds a key of type `type`, which this platform has no SecKey
    /// for.
    package static func keyItemHoldsKey(type: some BinaryInteger) -> KeychainError {
        KeychainError(.unimplemented, "The key item holds a key of type \(type), which this platform has no SecKey for. Ask for kSecReturnData instead.")
    }

    /// `.integrityViolation`: The key item has no key type SecKey understands (kSecAttrKeyType is
    /// `type`, not kSecAttrKeyTypeECSECPrimeRandom).
    package static func keyItemKeyType(type: some BinaryInteger) -> KeychainError {
        KeychainError(.integrityViolation, "The key item has no key type SecKey understands (kSecAttrKeyType is \(type), not kSecAttrKeyTypeECSECPrimeRandom).")
    }

    /// `.unimplemented`: The key item is a symmetric key (kSecAttrKeyClassSymmetric), which has no
    /// SecKey on this platform.
    package static func keyItemSymmetricKey() -> KeychainError {
        KeychainError(.unimplemented, "The key item is a symmetric key (kSecAttrKeyClassSymmetric), which has no SecKey on this platform. Ask for kSecReturnData instead.")
    }

    /// `.integrityViolation`: The key item's data is not an X9.63 EC … key.
    package static func keyItemDataX9(isPrivate: Bool) -> KeychainError {
        KeychainError(.integrityViolation, "The key item's data is not an X9.63 EC \(isPrivate ? "private" : "public") key.")
    }

    /// `.integrityViolation`: The key item's data is not a valid EC key: `reason`
    package static func keyItemDataValid(reason: String) -> KeychainError {
        KeychainError(.integrityViolation, "The key item's data is not a valid EC key: \(reason)")
    }

    /// `.unimplemented`: The key item holds an RSA key this platform cannot use: `reason` Ask for
    /// kSecReturnData instead.
    package static func keyItemHoldsRSA(reason: String) -> KeychainError {
        KeychainError(.unimplemented, "The key item holds an RSA key this platform cannot use: \(reason) Ask for kSecReturnData instead.")
    }

    /// `.integrityViolation`: The key item's data is not a valid RSA … key (PKCS#1).
    package static func keyItemDataValid(isPrivate: Bool) -> KeychainError {
        KeychainError(.integrityViolation, "The key item's data is not a valid RSA \(isPrivate ? "private" : "public") key (PKCS#1).")
    }

    /// `.duplicateItem`: The key was generated inside the keychain and is stored there already
    /// (kSecAttrTokenIDSecureEnclave keys cannot be added again or imported).
    package static func keyGeneratedInsideKeychainStored() -> KeychainError {
        KeychainError(.duplicateItem, "The key was generated inside the keychain and is stored there already (kSecAttrTokenIDSecureEnclave keys cannot be added again or imported).")
    }

    /// `.invalidParameter`: The private key is not a valid EC key.
    package static func privateKeyValidEC() -> KeychainError {
        KeychainError(.invalidParameter, "The private key is not a valid EC key.")
    }
}
