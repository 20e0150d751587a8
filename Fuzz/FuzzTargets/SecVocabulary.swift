#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices

/// Every `kSec…` constant KeychainServices defines, keys and values alike (so the fuzzer can put
/// a value where a key belongs and the other way round), plus the keys Apple's parser knows
/// without a public constant. Swift string comparisons run in the uninstrumented standard
/// library, so libFuzzer could not discover these names by itself.
enum SecVocabulary {
    static let constants: [String] =
        ([
            kSecClass, kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate,
            kSecClassKey, kSecClassIdentity, kSecAttrAccessible, kSecAttrAccessControl, kSecAttrAccessGroup,
            kSecAttrSynchronizable, kSecAttrSynchronizableAny, kSecAttrCreationDate,
            kSecAttrModificationDate, kSecAttrDescription, kSecAttrComment, kSecAttrCreator, kSecAttrType,
            kSecAttrLabel, kSecAttrIsInvisible, kSecAttrIsNegative, kSecAttrAccount, kSecAttrService,
            kSecAttrGeneric, kSecAttrSecurityDomain, kSecAttrServer, kSecAttrProtocol,
            kSecAttrAuthenticationType, kSecAttrPort, kSecAttrPath, kSecAttrSubject, kSecAttrIssuer,
            kSecAttrSerialNumber, kSecAttrSubjectKeyID, kSecAttrPublicKeyHash, kSecAttrCertificateType,
            kSecAttrCertificateEncoding, kSecAttrKeyClass, kSecAttrApplicationLabel,
            kSecAttrApplicationTag, kSecAttrKeyType, kSecAttrKeySizeInBits, kSecAttrEffectiveKeySize,
            kSecAttrIsPermanent, kSecAttrIsSensitive, kSecAttrWasAlwaysSensitive, kSecAttrIsExtractable,
            kSecAttrWasNeverExtractable, kSecAttrCanEncrypt, kSecAttrCanDecrypt, kSecAttrCanDerive,
            kSecAttrCanSign, kSecAttrCanVerify, kSecAttrCanWrap, kSecAttrCanUnwrap, kSecAttrSyncViewHint,
            kSecAttrTokenID, kSecAttrPersistentReference, kSecAttrPersistantReference,
            kSecAttrSharingGroup, kSecAttrKeyCreator, kSecAttrStartDate, kSecAttrEndDate, kSecAttrIsPrivate,
            kSecAttrIsModifiable, kSecAttrAlias, kSecAttrHasCustomIcon, kSecAttrScriptCode,
            kSecAttrProtected, kSecAttrTombstone, kSecAttrMultiUser, kSecAttrSHA1, kSecAttrCanSignRecover,
            kSecAttrCanVerifyRecover, kSecAttrAccessGroupToken, kSecAttrTokenIDSecureEnclave,
            kSecAttrAccessibleWhenUnlocked, kSecAttrAccessibleAfterFirstUnlock, kSecAttrAccessibleAlways,
            kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, kSecAttrAccessibleAlwaysThisDeviceOnly,
            kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, kSecAttrProtocolFTP,
            kSecAttrProtocolFTPAccount, kSecAttrProtocolHTTP, kSecAttrProtocolIRC, kSecAttrProtocolNNTP,
            kSecAttrProtocolPOP3, kSecAttrProtocolSMTP, kSecAttrProtocolSOCKS, kSecAttrProtocolIMAP,
            kSecAttrProtocolLDAP, kSecAttrProtocolAppleTalk, kSecAttrProtocolAFP, kSecAttrProtocolTelnet,
            kSecAttrProtocolSSH, kSecAttrProtocolFTPS, kSecAttrProtocolHTTPS, kSecAttrProtocolHTTPProxy,
            kSecAttrProtocolHTTPSProxy, kSecAttrProtocolFTPProxy, kSecAttrProtocolSMB,
            kSecAttrProtocolRTSP, kSecAttrProtocolRTSPProxy, kSecAttrProtocolDAAP, kSecAttrProtocolEPPC,
            kSecAttrProtocolIPP, kSecAttrProtocolNNTPS, kSecAttrProtocolLDAPS, kSecAttrProtocolTelnetS,
            kSecAttrProtocolIMAPS, kSecAttrProtocolIRCS, kSecAttrProtocolPOP3S,
            kSecAttrAuthenticationTypeNTLM, kSecAttrAuthenticationTypeMSN, kSecAttrAuthenticationTypeDPA,
            kSecAttrAuthenticationTypeRPA, kSecAttrAuthenticationTypeHTTPBasic,
            kSecAttrAuthenticationTypeHTTPDigest, kSecAttrAuthenticationTypeHTMLForm,
            kSecAttrAuthenticationTypeDefault, kSecAttrKeyTypeRSA, kSecAttrKeyTypeEC,
            kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyTypeEd25519, kSecAttrKeyTypeX25519,
            kSecAttrKeyTypeEd448, kSecAttrKeyTypeX448, kSecAttrKeyClassPublic, kSecAttrKeyClassPrivate,
            kSecAttrKeyClassSymmetric, kSecMatchLimit, kSecMatchLimitOne, kSecMatchLimitAll,
            kSecMatchCaseInsensitive, kSecMatchItemList, kSecMatchSearchList, kSecMatchPolicy,
            kSecMatchIssuers, kSecMatchEmailAddressIfPresent, kSecMatchSubjectContains,
            kSecMatchSubjectStartsWith, kSecMatchSubjectEndsWith, kSecMatchSubjectWholeString,
            kSecMatchDiacriticInsensitive, kSecMatchWidthInsensitive, kSecMatchHostOrSubdomainOfHost,
            kSecMatchTrustedOnly, kSecMatchValidOnDate, kSecReturnData, kSecReturnAttributes, kSecReturnRef,
            kSecReturnPersistentRef, kSecValueData, kSecValueRef, kSecValuePersistentRef,
            kSecUseAuthenticationUI, kSecUseAuthenticationUIAllow, kSecUseAuthenticationUIFail,
            kSecUseAuthenticationUISkip, kSecUseAuthenticationContext, kSecUseOperationPrompt,
            kSecUseNoAuthenticationUI, kSecUseDataProtectionKeychain, kSecUseItemList, kSecUseKeychain,
            kSecPrivateKeyAttrs, kSecPublicKeyAttrs
        ] as [CFString]).map { $0 as String } + [
            "nleg", "clip", "accc", "u_CredRef", "u_Tomb", "u_CallerName", "u_SystemKeychain", "u_SystemKeychainAlways",
            "u_SyncBubbleKeychain", "u_TokenRawItems", "u_UserIndependentKeychain", "binn", "sha1", "musr", "tomb",
            "m_Limit", "r_", "u_", "v_", "c", "m", "r", "u", "v", "f"
        ]
}
#endif
