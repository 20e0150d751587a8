#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// A SecItem dictionary taken apart by the key-parsing rules of Apple's keychain.
///
/// Parsing never stops at the first problem: errors of the client library and of
/// the dictionary parser (step 3) are kept, so each operation can report them in Apple's order,
/// after the entitlement checks of step 2.
struct SecItemDictionary {
    /// `kSecAttrSynchronizable`, which may also be `kSecAttrSynchronizableAny`.
    typealias Synchronizable = SecValue.Synchronizable

    var itemClass: ItemClass?
    var classWasGiven = false
    /// Attributes by raw key, not yet checked against the class.
    var attributes: [AttributeKey: AttributeValue] = [:]
    var synchronizable: Synchronizable?
    var accessControl: SecAccessControl?
    var returnData = false
    var returnAttributes = false
    var returnRef = false
    var returnPersistentRef = false
    var matchLimit: MatchLimit?
    /// Every `m_…` key given (their values are checked by the operations that use them).
    var matchKeys: [String: Any] = [:]
    var valueData: Data?
    var valueRef: Any?
    var persistentReference: PersistentReference?
    var authenticationUI: String?
    var hasAuthenticationContext = false
    /// `kSecUseAuthenticationContext`'s context.
    var authenticationContext: AuthenticationContext?
    /// `kSecUseOperationPrompt`.
    var operationPrompt: String?
    var hasCredentialReference = false
    var useItemList = false

    /// A problem the client library reports before entitlements are checked.
    private(set) var clientError: KeychainError?
    /// The first problem the dictionary parser found.
    private(set) var parseError: KeychainError?

    /// Apple refuses dictionaries with more keys than this.
    static let maximumKeyCount = 128

    init(_ dictionary: CFDictionary) {
        if dictionary.count > Self.maximumKeyCount {
            fail(KeychainError.tooManyDictionaryKeys(count: dictionary.count, maximum: Self.maximumKeyCount))
        }
        for (rawKey, value) in dictionary {
            guard let key = SecValue.string(rawKey) else {
                fail(
                    SecValue.isNumber(rawKey)
                        ? KeychainError.numericDictionaryKey(key: rawKey)
                        : KeychainError.nonStringDictionaryKey(type: type(of: rawKey)))
                continue
            }
            if value is NSNull {
                fail(KeychainError.nullValue(key: key))
                continue
            }
            parse(key, value)
        }
        validateAttributesAgainstClass()
    }

    // MARK: - Keys

    private mutating func parse(_ key: String, _ value: Any) {
        if key.utf16.count == 4 {
            parseAttribute(key, value)
            return
        }
        guard key.utf16.count > 1 else { return fail(KeychainError.unknownKey(key: key)) }
        switch key.first {
        case "c":
            guard key == "class" else { return fail(KeychainError.unknownKey(key: key)) }
            parseClass(value)
        case "m":
            parseMatch(key, value)
        case "r":
            parseReturn(key, value)
        case "u":
            parseUse(key, value)
        case "v":
            parseValue(key, value)
        case "f":
            break
        default:
            fail(KeychainError.unknownKey(key: key))
        }
    }

    private mutating func parseClass(_ value: Any) {
        classWasGiven = true
        guard let name = SecValue.string(value) else {
            return fail(KeychainError.nonStringClass())
        }
        guard let itemClass = ItemClass(rawValue: name) else {
            return fail(KeychainError.unknownItemClass(name: name))
        }
        self.itemClass = itemClass
    }

    private mutating func parseAttribute(_ key: String, _ value: Any) {
        switch key {
        case "nleg":
            return
        case "clip":
            return fail(KeychainError.clipAttributeRefused())
        case "accc":
            guard let control = value as? SecAccessControl else {
                clientError = clientError ?? KeychainError.accessControlNotSecAccessControl()
                return
            }
            accessControl = control
        case "sync":
            guard let setting = SecValue.synchronizable(value) else {
                return fail(KeychainError.invalidSynchronizableValue())
            }
            synchronizable = setting
        default:
            do {
                attributes[AttributeKey(rawValue: key)] = try SecValue.attribute(value, key: key)
            } catch {
                fail(error)
            }
        }
    }

    private mutating func parseMatch(_ key: String, _ value: Any) {
        matchKeys[key] = value
        guard key == "m_Limit" else { return }
        if let name = SecValue.string(value) {
            switch name {
            case "m_LimitOne": matchLimit = .one
            case "m_LimitAll": matchLimit = .all
            default: fail(KeychainError.invalidMatchLimitValue())
            }
        } else if case .integer(let count) = SecValue.integer(value) {
            switch count {
            case -1: matchLimit = .all
            case 1: matchLimit = .one
            case 2...: matchLimit = .count(Int(clamping: count))
            default: fail(KeychainError.invalidMatchLimitNumber(count: count))
            }
        } else {
            fail(KeychainError.invalidMatchLimitValue())
        }
    }

    private mutating func parseReturn(_ key: String, _ value: Any) {
        guard ["r_Data", "r_Attributes", "r_Ref", "r_PersistentRef"].contains(key) else {
            return fail(KeychainError.unknownReturnKey(key: key))
        }
        guard let flag = SecValue.boolean(value) else {
            return fail(KeychainError.nonBooleanReturnKey(key: key, type: type(of: value)))
        }
        switch key {
        case "r_Data": returnData = flag
        case "r_Attributes": returnAttributes = flag
        case "r_Ref": returnRef = flag
        default: returnPersistentRef = flag
        }
    }

    private static let knownUseKeys: Set<String> = [
        "u_AuthUI", "u_AuthCtx", "u_OpPrompt", "u_NoAuthUI", "u_ItemList", "u_Keychain", "u_CredRef", "u_Tomb",
        "u_CallerName", "u_SystemKeychain", "u_SystemKeychainAlways", "u_SyncBubbleKeychain", "u_TokenRawItems",
        "u_UserIndependentKeychain"
    ]

    private mutating func parseUse(_ key: String, _ value: Any) {
        guard Self.knownUseKeys.contains(key) else { return fail(KeychainError.unknownUseKey(key: key)) }
        switch key {
        case "u_AuthUI":
            guard let choice = SecValue.string(value), ["u_AuthUIA", "u_AuthUIF", "u_AuthUIS"].contains(choice) else {
                return fail(KeychainError.invalidAuthenticationUIValue())
            }
            authenticationUI = choice
        case "u_NoAuthUI":
            guard let flag = SecValue.boolean(value) else { return fail(KeychainError.nonBooleanNoAuthenticationUI()) }
            if flag { authenticationUI = authenticationUI ?? "u_AuthUIF" }
        case "u_AuthCtx":
            hasAuthenticationContext = true
            guard let context = value as? AuthenticationContext else {
                return fail(KeychainError.invalidAuthenticationContext())
            }
            authenticationContext = context
        case "u_OpPrompt":
            guard let prompt = SecValue.string(value) else { return fail(KeychainError.nonStringOperationPrompt()) }
            operationPrompt = prompt
        case "u_CredRef":
            hasCredentialReference = true
        case "u_ItemList":
            useItemList = true
        default:
            break
        }
    }

    private mutating func parseValue(_ key: String, _ value: Any) {
        switch key {
        case "v_Data":
            guard let bytes = SecValue.data(value) else {
                return fail(KeychainError.nonDataValueWithHint(type: type(of: value)))
            }
            valueData = bytes
        case "v_Ref":
            valueRef = value
        case "v_PersistentRef":
            guard let bytes = SecValue.data(value), let reference = PersistentReference(data: bytes) else {
                if let bytes = SecValue.data(value), [12, 20].contains(bytes.count),
                    bytes.prefix(4) == Data("apls".utf8)
                {
                    // A well-formed reference to the legacy AppleShare class, which has no table.
                    return fail(KeychainError.appleSharePasswordReference())
                }
                return fail(KeychainError.invalidPersistentReference())
            }
            persistentReference = reference
        default:
            fail(KeychainError.unknownValueKey(key: key))
        }
    }

    /// A four-character key the class does not have is `errSecNoSuchAttr`.
    private mutating func validateAttributesAgainstClass() {
        guard let itemClass = itemClass ?? persistentReference?.itemClass else { return }
        let schema = ItemSchema.of(itemClass)
        for key in attributes.keys.sorted() where !schema.accepts(key) {
            fail(KeychainError.attributeNotInClassForSecItem(key: key, itemClass: itemClass.rawValue))
        }
    }

    private mutating func fail(_ error: KeychainError) {
        parseError = parseError ?? error
    }

    // MARK: - Derived

    /// Whether any `kSecReturn…` key is true.
    var returnsAnything: Bool { returnData || returnAttributes || returnRef || returnPersistentRef }

    /// How many `kSecReturn…` keys are true (one gives a bare value, several a dictionary).
    var returnKeyCount: Int { [returnData, returnAttributes, returnRef, returnPersistentRef].filter { $0 }.count }

    /// What the engine must decrypt and return: attributes also for a reference, whose
    /// dictionary carries every attribute, and the data of a key whose reference (a SecKey)
    /// is built from it.
    var returnOptions: ReturnOptions {
        var options: ReturnOptions = [.persistentReference]
        let keyClass = itemClass ?? persistentReference?.itemClass ?? (valueRef is SecKey ? .key : nil)
        if returnData || (returnRef && keyClass == .key) { options.insert(.data) }
        if returnAttributes || returnRef { options.insert(.attributes) }
        return options
    }

    /// How the engine may authenticate the user: the context, `kSecUseAuthenticationUI`
    /// (`kSecUseNoAuthenticationUI` counts as Fail) and the prompt.
    var authenticationOptions: AuthenticationOptions {
        let interaction: AuthenticationOptions.Interaction =
            switch authenticationUI {
            case "u_AuthUIF": .fail
            case "u_AuthUIS": .skip
            default: .allow
            }
        return AuthenticationOptions(
            context: authenticationContext, interaction: interaction, reason: operationPrompt ?? "")
    }

    /// Whether the dictionary names attributes next to a persistent reference (which some
    /// operations refuse). `kSecAttrSynchronizableAny` does not count.
    var hasAttributesBesideReference: Bool {
        !attributes.isEmpty || accessControl != nil || (synchronizable != nil && synchronizable != .any)
    }

    /// The checks Apple's client library makes before anything else.
    func checkClientRules(allowsSkip: Bool) throws(KeychainError) {
        if let clientError { throw clientError }
        if authenticationUI == "u_AuthUIS" && !allowsSkip {
            throw KeychainError.authenticationUISkipOutsideCopyMatching()
        }
        if hasAuthenticationContext && hasCredentialReference {
            throw KeychainError.authenticationContextWithCredentialReference()
        }
    }

    /// The dictionary parser's verdict, after the client library's checks.
    func checkParsed() throws(KeychainError) {
        if let parseError { throw parseError }
    }
}
#endif
