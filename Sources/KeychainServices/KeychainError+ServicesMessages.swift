// Every message of a KeychainError that KeychainServices raises, in one place. Factories take
// only what a message may name (attribute keys, class names, access groups), never values.
// The portable implementation's only: on Apple platforms the Security framework raises its own.

#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import KeychainCore

extension KeychainError {
    // MARK: - Certificates

    /// `.unimplemented`: `key` needs certificate trust evaluation.
    package static func certificateTrustUnsupported(key: String) -> KeychainError {
        KeychainError(
            .unimplemented, "\(key) needs certificate trust evaluation, which this platform does not provide yet.")
    }

    /// `.unimplemented`: `key` applies to certificates and identities only.
    package static func certificateOnlyKey(key: String) -> KeychainError {
        KeychainError(.unimplemented, "\(key) applies to certificates and identities only.")
    }

    // MARK: - General

    /// `.noSuchAttribute`: A dictionary key is a number (`key`), which names no attribute.
    package static func numericDictionaryKey(key: Any) -> KeychainError {
        KeychainError(.noSuchAttribute, "A dictionary key is a number (\(key)), which names no attribute.")
    }

    /// `.noSuchClass`: '`name`' is not a keychain item class; use one of the kSecClass… constants.
    package static func unknownItemClass(name: String) -> KeychainError {
        KeychainError(.noSuchClass, "'\(name)' is not a keychain item class; use one of the kSecClass… constants.")
    }

    /// `.noSuchClass`: kSecValuePersistentRef names kSecClassAppleSharePassword, which this
    /// keychain does not store.
    package static func appleSharePasswordReference() -> KeychainError {
        KeychainError(
            .noSuchClass,
            "kSecValuePersistentRef names kSecClassAppleSharePassword, which this keychain does not store.")
    }

    /// `.noSuchAttribute`: The attribute `key` does not exist for `itemClass` items
    /// (errSecNoSuchAttr).
    package static func attributeNotInClassForSecItem(key: AttributeKey, itemClass: String) -> KeychainError {
        KeychainError(
            .noSuchAttribute, "The attribute \(key) does not exist for \(itemClass) items (errSecNoSuchAttr).")
    }

    /// `.invalidParameter`: The value of `key` is a fractional number; keychain numbers are
    /// integers.
    package static func fractionalNumber(key: String) -> KeychainError {
        KeychainError(.invalidParameter, "The value of \(key) is a fractional number; keychain numbers are integers.")
    }

    /// `.invalidParameter`: The value of `key` has an unsupported type (`type`); use a string,
    /// data, number, boolean or date.
    package static func unsupportedValueType(key: String, type: Any.Type) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "The value of \(key) has an unsupported type (\(type)); use a string, data, number, boolean or date.")
    }

    /// `.noSuchAttribute`: A key of attributesToUpdate is a number (`key`), which names no
    /// attribute.
    package static func numericUpdateKey(key: Any) -> KeychainError {
        KeychainError(.noSuchAttribute, "A key of attributesToUpdate is a number (\(key)), which names no attribute.")
    }

    /// `.noSuchAttribute`: `key` is not an attribute and cannot be updated (errSecNoSuchAttr).
    package static func notAnUpdatableAttribute(key: String) -> KeychainError {
        KeychainError(.noSuchAttribute, "\(key) is not an attribute and cannot be updated (errSecNoSuchAttr).")
    }

    /// `.missingEntitlement`: Client has neither application-identifier nor keychain-access-groups
    /// entitlements.
    package static func noEntitlements() -> KeychainError {
        KeychainError(
            .missingEntitlement,
            "Client has neither application-identifier nor keychain-access-groups entitlements. Set KEYCHAIN_APPLICATION_IDENTIFIER or SecItemEnvironment.applicationIdentity."
        )
    }

    /// `.missingEntitlement`: Client explicitly specifies access group `group` but is only entitled
    /// for `entitledGroups`.
    package static func accessGroupNotEntitled(group: String, entitledGroups: [String]) -> KeychainError {
        KeychainError(
            .missingEntitlement,
            "Client explicitly specifies access group \(group) but is only entitled for \(entitledGroups). Add it to KEYCHAIN_ACCESS_GROUPS or SecItemEnvironment.applicationIdentity."
        )
    }

    /// `.keychainUnavailable`: Cannot create the simulated device's keychain directory `directory`:
    /// `reason`
    package static func simulatedDeviceDirectoryCreationFailed(directory: String, reason: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable, "Cannot create the simulated device's keychain directory \(directory): \(reason)")
    }

    /// `.invalidParameter`: `variable`: unknown word '`word`'.
    package static func simulatedDeviceUnknownWord(variable: String, word: String) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "\(variable): unknown word '\(word)'. Use passcode[=approve|deny|cancel], biometry[=approve|deny|cancel|none], biometry-set=NAME, locked."
        )
    }

    /// `.invalidParameter`: `variable`: biometry needs a passcode, as on Apple devices; add the
    /// word passcode.
    package static func simulatedBiometryWithoutPasscode(variable: String) -> KeychainError {
        KeychainError(
            .invalidParameter, "\(variable): biometry needs a passcode, as on Apple devices; add the word passcode.")
    }

    /// `.invalidParameter`: `variable`: a device without a passcode cannot be locked; add the word
    /// passcode.
    package static func simulatedLockWithoutPasscode(variable: String) -> KeychainError {
        KeychainError(
            .invalidParameter, "\(variable): a device without a passcode cannot be locked; add the word passcode.")
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
    package static func certificateReferencesUnsupported() -> KeychainError {
        KeychainError(
            .unimplemented,
            "kSecReturnRef for certificates and identities needs SecCertificate/SecIdentity, which this platform does not provide yet. Ask for kSecReturnData or kSecReturnPersistentRef."
        )
    }

    /// `.itemNotFound`: No internet password for that host or its subdomains.
    package static func noInternetPasswordForHost() -> KeychainError {
        KeychainError(.itemNotFound, "No internet password for that host or its subdomains.")
    }

    /// `.unimplemented`: `key` needs certificate parsing, which this platform does not provide yet.
    package static func certificateParsingUnsupported(key: String) -> KeychainError {
        KeychainError(.unimplemented, "\(key) needs certificate parsing, which this platform does not provide yet.")
    }

    /// `.unimplemented`: kSecMatchHostOrSubdomainOfHost applies to internet passwords only.
    package static func hostMatchOnOtherClass() -> KeychainError {
        KeychainError(.unimplemented, "kSecMatchHostOrSubdomainOfHost applies to internet passwords only.")
    }

    /// `.unimplemented`: kSecReturnRef for certificates needs SecCertificate, which this platform
    /// does not provide yet; the item was added.
    package static func certificateReferenceAfterAdd() -> KeychainError {
        KeychainError(
            .unimplemented,
            "kSecReturnRef for certificates needs SecCertificate, which this platform does not provide yet; the item was added."
        )
    }

    // MARK: - Keys

    /// `.integrityViolation`: A key generated inside the keychain has no supported key size.
    package static func tokenKeyWithoutKeySize() -> KeychainError {
        KeychainError(.integrityViolation, "A key generated inside the keychain has no supported key size.")
    }

    /// `.unimplemented`: The key item holds a key of type `type`, which this platform has no SecKey
    /// for.
    package static func keyTypeWithoutSecKey(type: some BinaryInteger) -> KeychainError {
        KeychainError(
            .unimplemented,
            "The key item holds a key of type \(type), which this platform has no SecKey for. Ask for kSecReturnData instead."
        )
    }

    /// `.integrityViolation`: The key item has no key type SecKey understands (kSecAttrKeyType is
    /// `type`, not kSecAttrKeyTypeECSECPrimeRandom).
    package static func unknownKeyType(type: some BinaryInteger) -> KeychainError {
        KeychainError(
            .integrityViolation,
            "The key item has no key type SecKey understands (kSecAttrKeyType is \(type), not kSecAttrKeyTypeECSECPrimeRandom)."
        )
    }

    /// `.unimplemented`: The key item is a symmetric key (kSecAttrKeyClassSymmetric), which has no
    /// SecKey on this platform.
    package static func symmetricKeyWithoutSecKey() -> KeychainError {
        KeychainError(
            .unimplemented,
            "The key item is a symmetric key (kSecAttrKeyClassSymmetric), which has no SecKey on this platform. Ask for kSecReturnData instead."
        )
    }

    /// `.integrityViolation`: The key item's data is not an X9.63 EC … key.
    package static func invalidECKeyData(isPrivate: Bool) -> KeychainError {
        KeychainError(
            .integrityViolation, "The key item's data is not an X9.63 EC \(isPrivate ? "private" : "public") key.")
    }

    /// `.integrityViolation`: The key item's data is not a valid EC key: `reason`
    package static func invalidECKey(reason: String) -> KeychainError {
        KeychainError(.integrityViolation, "The key item's data is not a valid EC key: \(reason)")
    }

    /// `.unimplemented`: The key item holds an RSA key this platform cannot use: `reason` Ask for
    /// kSecReturnData instead.
    package static func unusableRSAKey(reason: String) -> KeychainError {
        KeychainError(
            .unimplemented,
            "The key item holds an RSA key this platform cannot use: \(reason) Ask for kSecReturnData instead.")
    }

    /// `.integrityViolation`: The key item's data is not a valid RSA … key (PKCS#1).
    package static func invalidRSAKeyData(isPrivate: Bool) -> KeychainError {
        KeychainError(
            .integrityViolation,
            "The key item's data is not a valid RSA \(isPrivate ? "private" : "public") key (PKCS#1).")
    }

    /// `.duplicateItem`: The key was generated inside the keychain and is stored there already
    /// (kSecAttrTokenIDSecureEnclave keys cannot be added again or imported).
    package static func tokenKeyAlreadyStored() -> KeychainError {
        KeychainError(
            .duplicateItem,
            "The key was generated inside the keychain and is stored there already (kSecAttrTokenIDSecureEnclave keys cannot be added again or imported)."
        )
    }

    /// `.invalidParameter`: The private key is not a valid EC key.
    package static func invalidECPrivateKey() -> KeychainError {
        KeychainError(.invalidParameter, "The private key is not a valid EC key.")
    }

    // MARK: - SecItem dictionaries

    /// `.invalidParameter`: The dictionary has `count` keys; at most `maximum` are accepted.
    package static func tooManyDictionaryKeys(count: Int, maximum: Int) -> KeychainError {
        KeychainError(.invalidParameter, "The dictionary has \(count) keys; at most \(maximum) are accepted.")
    }

    /// `.invalidParameter`: A dictionary key is not a string (`type`).
    package static func nonStringDictionaryKey(type: Any.Type) -> KeychainError {
        KeychainError(.invalidParameter, "A dictionary key is not a string (\(type)).")
    }

    /// `.invalidParameter`: The value of `key` is null.
    package static func nullValue(key: String) -> KeychainError {
        KeychainError(.invalidParameter, "The value of \(key) is null.")
    }

    /// `.invalidParameter`: Unknown key `key`.
    package static func unknownKey(key: String) -> KeychainError {
        KeychainError(.invalidParameter, "Unknown key \(key).")
    }

    /// `.invalidParameter`: The value of kSecClass is not a string.
    package static func nonStringClass() -> KeychainError {
        KeychainError(.invalidParameter, "The value of kSecClass is not a string.")
    }

    /// `.invalidParameter`: The private attribute clip is not accepted.
    package static func clipAttributeRefused() -> KeychainError {
        KeychainError(.invalidParameter, "The private attribute clip is not accepted.")
    }

    /// `.invalidParameter`: kSecAttrAccessControl must be a SecAccessControl.
    package static func accessControlNotSecAccessControl() -> KeychainError {
        KeychainError(.invalidParameter, "kSecAttrAccessControl must be a SecAccessControl.")
    }

    /// `.invalidParameter`: kSecAttrSynchronizable must be a boolean or kSecAttrSynchronizableAny.
    package static func invalidSynchronizableValue() -> KeychainError {
        KeychainError(.invalidParameter, "kSecAttrSynchronizable must be a boolean or kSecAttrSynchronizableAny.")
    }

    /// `.invalidParameter`: kSecMatchLimit must be kSecMatchLimitOne, kSecMatchLimitAll or a
    /// number.
    package static func invalidMatchLimitValue() -> KeychainError {
        KeychainError(.invalidParameter, "kSecMatchLimit must be kSecMatchLimitOne, kSecMatchLimitAll or a number.")
    }

    /// `.invalidParameter`: kSecMatchLimit `count` is not valid; use a positive number or -1.
    package static func invalidMatchLimitNumber(count: some BinaryInteger) -> KeychainError {
        KeychainError(.invalidParameter, "kSecMatchLimit \(count) is not valid; use a positive number or -1.")
    }

    /// `.invalidParameter`: Unknown return key `key`.
    package static func unknownReturnKey(key: String) -> KeychainError {
        KeychainError(.invalidParameter, "Unknown return key \(key).")
    }

    /// `.invalidParameter`: `key` must be a boolean (true or kCFBooleanTrue), not `type`.
    package static func nonBooleanReturnKey(key: String, type: Any.Type) -> KeychainError {
        KeychainError(.invalidParameter, "\(key) must be a boolean (true or kCFBooleanTrue), not \(type).")
    }

    /// `.invalidParameter`: Unknown use key `key`.
    package static func unknownUseKey(key: String) -> KeychainError {
        KeychainError(.invalidParameter, "Unknown use key \(key).")
    }

    /// `.invalidParameter`: kSecUseAuthenticationUI must be one of the kSecUseAuthenticationUI…
    /// constants.
    package static func invalidAuthenticationUIValue() -> KeychainError {
        KeychainError(
            .invalidParameter, "kSecUseAuthenticationUI must be one of the kSecUseAuthenticationUI… constants.")
    }

    /// `.invalidParameter`: kSecUseNoAuthenticationUI must be a boolean.
    package static func nonBooleanNoAuthenticationUI() -> KeychainError {
        KeychainError(.invalidParameter, "kSecUseNoAuthenticationUI must be a boolean.")
    }

    /// `.invalidParameter`: kSecUseAuthenticationContext must be an LAContext
    /// (AuthenticationContext).
    package static func invalidAuthenticationContext() -> KeychainError {
        KeychainError(.invalidParameter, "kSecUseAuthenticationContext must be an LAContext (AuthenticationContext).")
    }

    /// `.invalidParameter`: kSecUseOperationPrompt must be a string.
    package static func nonStringOperationPrompt() -> KeychainError {
        KeychainError(.invalidParameter, "kSecUseOperationPrompt must be a string.")
    }

    /// `.invalidParameter`: kSecValueData must be Data (CFData), not `type`; convert strings with
    /// Data(string.utf8).
    package static func nonDataValueWithHint(type: Any.Type) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "kSecValueData must be Data (CFData), not \(type); convert strings with Data(string.utf8).")
    }

    /// `.invalidParameter`: kSecValuePersistentRef is not a persistent reference.
    package static func invalidPersistentReference() -> KeychainError {
        KeychainError(.invalidParameter, "kSecValuePersistentRef is not a persistent reference.")
    }

    /// `.invalidParameter`: Unknown value key `key`.
    package static func unknownValueKey(key: String) -> KeychainError {
        KeychainError(.invalidParameter, "Unknown value key \(key).")
    }

    /// `.invalidParameter`: kSecUseAuthenticationUISkip is only valid in SecItemCopyMatching.
    package static func authenticationUISkipOutsideCopyMatching() -> KeychainError {
        KeychainError(.invalidParameter, "kSecUseAuthenticationUISkip is only valid in SecItemCopyMatching.")
    }

    /// `.invalidParameter`: kSecUseAuthenticationContext cannot be combined with a credential
    /// reference.
    package static func authenticationContextWithCredentialReference() -> KeychainError {
        KeychainError(.invalidParameter, "kSecUseAuthenticationContext cannot be combined with a credential reference.")
    }

    /// `.invalidParameter`: SecItemUpdate's query cannot ask to return anything (kSecReturn… true).
    package static func updateQueryAsksReturn() -> KeychainError {
        KeychainError(.invalidParameter, "SecItemUpdate's query cannot ask to return anything (kSecReturn… true).")
    }

    /// `.invalidParameter`: SecItemUpdate's query cannot contain kSecMatch… keys (including
    /// kSecMatchLimit) or kSecUseItemList; updates always apply to every match.
    package static func updateQueryWithMatchKeys() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "SecItemUpdate's query cannot contain kSecMatch… keys (including kSecMatchLimit) or kSecUseItemList; updates always apply to every match."
        )
    }

    /// `.invalidParameter`: A legacy persistent reference cannot be combined with attributes.
    package static func legacyReferenceWithAttributes() -> KeychainError {
        KeychainError(.invalidParameter, "A legacy persistent reference cannot be combined with attributes.")
    }

    /// `.invalidParameter`: Give either kSecAttrAccessible or kSecAttrAccessControl, not both.
    package static func accessibleAndAccessControl() -> KeychainError {
        KeychainError(.invalidParameter, "Give either kSecAttrAccessible or kSecAttrAccessControl, not both.")
    }

    /// `.invalidParameter`: A key of attributesToUpdate is not a string.
    package static func nonStringUpdateKey() -> KeychainError {
        KeychainError(.invalidParameter, "A key of attributesToUpdate is not a string.")
    }

    /// `.invalidParameter`: kSecValueData must be Data (CFData), not `type`.
    package static func nonDataValue(type: Any.Type) -> KeychainError {
        KeychainError(.invalidParameter, "kSecValueData must be Data (CFData), not \(type).")
    }

    /// `.invalidParameter`: kSecAttrSynchronizable in attributesToUpdate must be a boolean
    /// (kSecAttrSynchronizableAny is only for searches).
    package static func nonBooleanSynchronizableUpdate() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "kSecAttrSynchronizable in attributesToUpdate must be a boolean (kSecAttrSynchronizableAny is only for searches)."
        )
    }

    /// `.invalidParameter`: SecItemDelete's query cannot contain kSecMatch… keys (including
    /// kSecMatchLimit) or kSecUseItemList; a delete always removes every match.
    package static func deleteQueryWithMatchKeys() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "SecItemDelete's query cannot contain kSecMatch… keys (including kSecMatchLimit) or kSecUseItemList; a delete always removes every match."
        )
    }

    /// `.invalidParameter`: The dictionary has no kSecClass (and no persistent reference).
    package static func noClassNorReference() -> KeychainError {
        KeychainError(.invalidParameter, "The dictionary has no kSecClass (and no persistent reference).")
    }

    /// `.invalidParameter`: kSecValueRef must be a SecKey; SecCertificate and SecIdentity objects
    /// are not available on this platform yet.
    package static func valueRefNotSecKey() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "kSecValueRef must be a SecKey; SecCertificate and SecIdentity objects are not available on this platform yet."
        )
    }

    /// `.invalidParameter`: kSecValueRef is a SecKey but kSecClass is not kSecClassKey.
    package static func secKeyWithOtherClass() -> KeychainError {
        KeychainError(.invalidParameter, "kSecValueRef is a SecKey but kSecClass is not kSecClassKey.")
    }

    /// `.invalidParameter`: kSecAttrAccessGroup must be a string.
    package static func nonStringAccessGroup() -> KeychainError {
        KeychainError(.invalidParameter, "kSecAttrAccessGroup must be a string.")
    }

    /// `.invalidParameter`: kSecUseItemList is not supported by the data-protection keychain.
    package static func itemListUnsupported() -> KeychainError {
        KeychainError(.invalidParameter, "kSecUseItemList is not supported by the data-protection keychain.")
    }

    /// `.invalidParameter`: A persistent reference cannot be combined with attributes in
    /// SecItemCopyMatching.
    package static func referenceWithAttributes() -> KeychainError {
        KeychainError(
            .invalidParameter, "A persistent reference cannot be combined with attributes in SecItemCopyMatching.")
    }

    /// `.invalidParameter`: kSecMatchHostOrSubdomainOfHost must be a host name.
    package static func invalidHostMatch() -> KeychainError {
        KeychainError(.invalidParameter, "kSecMatchHostOrSubdomainOfHost must be a host name.")
    }

    /// `.invalidParameter`: SecItemAdd does not take kSecMatch… keys or kSecUseItemList; remove
    /// them (a search dictionary reused for an add). iOS reports success without storing the item
    /// in this case.
    package static func addWithMatchKeys() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "SecItemAdd does not take kSecMatch… keys or kSecUseItemList; remove them (a search dictionary reused for an add). iOS reports success without storing the item in this case."
        )
    }

    /// `.invalidParameter`: SecItemAdd does not take a legacy persistent reference.
    package static func addWithLegacyReference() -> KeychainError {
        KeychainError(.invalidParameter, "SecItemAdd does not take a legacy persistent reference.")
    }

    /// `.invalidParameter`: Give either kSecAttrAccessible or kSecAttrAccessControl, not both; put
    /// the protection inside the SecAccessControl.
    package static func accessibleAndAccessControlOnAdd() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "Give either kSecAttrAccessible or kSecAttrAccessControl, not both; put the protection inside the SecAccessControl."
        )
    }

    /// `.invalidParameter`: The dictionary has no kSecClass.
    package static func noClass() -> KeychainError {
        KeychainError(.invalidParameter, "The dictionary has no kSecClass.")
    }

    /// `.invalidParameter`: Identities are added by kSecValueRef with a SecIdentity, which this
    /// platform does not provide yet.
    package static func identityAddUnsupported() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "Identities are added by kSecValueRef with a SecIdentity, which this platform does not provide yet.")
    }

    /// `.invalidParameter`: A key generated inside the keychain never leaves this device; it cannot
    /// be synchronizable.
    package static func tokenKeyNotSynchronizable() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "A key generated inside the keychain never leaves this device; it cannot be synchronizable.")
    }
}
#endif
