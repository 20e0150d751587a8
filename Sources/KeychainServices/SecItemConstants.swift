#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation

// Every SecItem constant with Apple's raw value. Constants of
// class type need `nonisolated(unsafe)` under Swift 6; they are immutable.

// MARK: - Classes

/// `kSecClass` (`"class"`): the item class key of a SecItem dictionary
nonisolated(unsafe) public let kSecClass: CFString = "class"

/// `kSecClassGenericPassword` (`"genp"`): generic passwords
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"

/// `kSecClassInternetPassword` (`"inet"`): internet passwords
nonisolated(unsafe) public let kSecClassInternetPassword: CFString = "inet"

/// `kSecClassCertificate` (`"cert"`): certificates
nonisolated(unsafe) public let kSecClassCertificate: CFString = "cert"

/// `kSecClassKey` (`"keys"`): cryptographic keys
nonisolated(unsafe) public let kSecClassKey: CFString = "keys"

/// `kSecClassIdentity` (`"idnt"`): identities: a certificate with its private key (virtual)
nonisolated(unsafe) public let kSecClassIdentity: CFString = "idnt"

// MARK: - Attributes

/// `kSecAttrAccessible` (`"pdmn"`): when the item's data may be read
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"

/// `kSecAttrAccessControl` (`"accc"`): a SecAccessControl
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = "accc"

/// `kSecAttrAccessGroup` (`"agrp"`): the access group that owns the item
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"

/// `kSecAttrSynchronizable` (`"sync"`): whether the item syncs
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = "sync"

/// `kSecAttrSynchronizableAny` (`"syna"`): a query value matching synchronizable and local items
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = "syna"

/// `kSecAttrCreationDate` (`"cdat"`).
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = "cdat"

/// `kSecAttrModificationDate` (`"mdat"`).
nonisolated(unsafe) public let kSecAttrModificationDate: CFString = "mdat"

/// `kSecAttrDescription` (`"desc"`).
nonisolated(unsafe) public let kSecAttrDescription: CFString = "desc"

/// `kSecAttrComment` (`"icmt"`).
nonisolated(unsafe) public let kSecAttrComment: CFString = "icmt"

/// `kSecAttrCreator` (`"crtr"`).
nonisolated(unsafe) public let kSecAttrCreator: CFString = "crtr"

/// `kSecAttrType` (`"type"`).
nonisolated(unsafe) public let kSecAttrType: CFString = "type"

/// `kSecAttrLabel` (`"labl"`).
nonisolated(unsafe) public let kSecAttrLabel: CFString = "labl"

/// `kSecAttrIsInvisible` (`"invi"`).
nonisolated(unsafe) public let kSecAttrIsInvisible: CFString = "invi"

/// `kSecAttrIsNegative` (`"nega"`).
nonisolated(unsafe) public let kSecAttrIsNegative: CFString = "nega"

/// `kSecAttrAccount` (`"acct"`).
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"

/// `kSecAttrService` (`"svce"`).
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"

/// `kSecAttrGeneric` (`"gena"`).
nonisolated(unsafe) public let kSecAttrGeneric: CFString = "gena"

/// `kSecAttrSecurityDomain` (`"sdmn"`).
nonisolated(unsafe) public let kSecAttrSecurityDomain: CFString = "sdmn"

/// `kSecAttrServer` (`"srvr"`).
nonisolated(unsafe) public let kSecAttrServer: CFString = "srvr"

/// `kSecAttrProtocol` (`"ptcl"`).
nonisolated(unsafe) public let kSecAttrProtocol: CFString = "ptcl"

/// `kSecAttrAuthenticationType` (`"atyp"`).
nonisolated(unsafe) public let kSecAttrAuthenticationType: CFString = "atyp"

/// `kSecAttrPort` (`"port"`).
nonisolated(unsafe) public let kSecAttrPort: CFString = "port"

/// `kSecAttrPath` (`"path"`).
nonisolated(unsafe) public let kSecAttrPath: CFString = "path"

/// `kSecAttrSubject` (`"subj"`).
nonisolated(unsafe) public let kSecAttrSubject: CFString = "subj"

/// `kSecAttrIssuer` (`"issr"`).
nonisolated(unsafe) public let kSecAttrIssuer: CFString = "issr"

/// `kSecAttrSerialNumber` (`"slnr"`).
nonisolated(unsafe) public let kSecAttrSerialNumber: CFString = "slnr"

/// `kSecAttrSubjectKeyID` (`"skid"`).
nonisolated(unsafe) public let kSecAttrSubjectKeyID: CFString = "skid"

/// `kSecAttrPublicKeyHash` (`"pkhh"`).
nonisolated(unsafe) public let kSecAttrPublicKeyHash: CFString = "pkhh"

/// `kSecAttrCertificateType` (`"ctyp"`).
nonisolated(unsafe) public let kSecAttrCertificateType: CFString = "ctyp"

/// `kSecAttrCertificateEncoding` (`"cenc"`).
nonisolated(unsafe) public let kSecAttrCertificateEncoding: CFString = "cenc"

/// `kSecAttrKeyClass` (`"kcls"`).
nonisolated(unsafe) public let kSecAttrKeyClass: CFString = "kcls"

/// `kSecAttrApplicationLabel` (`"klbl"`).
nonisolated(unsafe) public let kSecAttrApplicationLabel: CFString = "klbl"

/// `kSecAttrApplicationTag` (`"atag"`).
nonisolated(unsafe) public let kSecAttrApplicationTag: CFString = "atag"

/// `kSecAttrKeyType` (`"type"`): same raw key as kSecAttrType
nonisolated(unsafe) public let kSecAttrKeyType: CFString = "type"

/// `kSecAttrKeySizeInBits` (`"bsiz"`).
nonisolated(unsafe) public let kSecAttrKeySizeInBits: CFString = "bsiz"

/// `kSecAttrEffectiveKeySize` (`"esiz"`).
nonisolated(unsafe) public let kSecAttrEffectiveKeySize: CFString = "esiz"

/// `kSecAttrIsPermanent` (`"perm"`).
nonisolated(unsafe) public let kSecAttrIsPermanent: CFString = "perm"

/// `kSecAttrIsSensitive` (`"sens"`).
nonisolated(unsafe) public let kSecAttrIsSensitive: CFString = "sens"

/// `kSecAttrWasAlwaysSensitive` (`"asen"`).
nonisolated(unsafe) public let kSecAttrWasAlwaysSensitive: CFString = "asen"

/// `kSecAttrIsExtractable` (`"extr"`).
nonisolated(unsafe) public let kSecAttrIsExtractable: CFString = "extr"

/// `kSecAttrWasNeverExtractable` (`"next"`).
nonisolated(unsafe) public let kSecAttrWasNeverExtractable: CFString = "next"

/// `kSecAttrCanEncrypt` (`"encr"`).
nonisolated(unsafe) public let kSecAttrCanEncrypt: CFString = "encr"

/// `kSecAttrCanDecrypt` (`"decr"`).
nonisolated(unsafe) public let kSecAttrCanDecrypt: CFString = "decr"

/// `kSecAttrCanDerive` (`"drve"`).
nonisolated(unsafe) public let kSecAttrCanDerive: CFString = "drve"

/// `kSecAttrCanSign` (`"sign"`).
nonisolated(unsafe) public let kSecAttrCanSign: CFString = "sign"

/// `kSecAttrCanVerify` (`"vrfy"`).
nonisolated(unsafe) public let kSecAttrCanVerify: CFString = "vrfy"

/// `kSecAttrCanWrap` (`"wrap"`).
nonisolated(unsafe) public let kSecAttrCanWrap: CFString = "wrap"

/// `kSecAttrCanUnwrap` (`"unwp"`).
nonisolated(unsafe) public let kSecAttrCanUnwrap: CFString = "unwp"

/// `kSecAttrSyncViewHint` (`"vwht"`).
nonisolated(unsafe) public let kSecAttrSyncViewHint: CFString = "vwht"

/// `kSecAttrTokenID` (`"tkid"`).
nonisolated(unsafe) public let kSecAttrTokenID: CFString = "tkid"

/// `kSecAttrPersistentReference` (`"persistref"`): internal; stripped from results
nonisolated(unsafe) public let kSecAttrPersistentReference: CFString = "persistref"

/// `kSecAttrPersistantReference` (`"persistref"`): Apple's misspelt alias
nonisolated(unsafe) public let kSecAttrPersistantReference: CFString = "persistref"

/// `kSecAttrSharingGroup` (`"ggrp"`): cannot be changed by SecItemUpdate
nonisolated(unsafe) public let kSecAttrSharingGroup: CFString = "ggrp"

/// `kSecAttrKeyCreator` (`"crtr"`).
nonisolated(unsafe) public let kSecAttrKeyCreator: CFString = "crtr"

/// `kSecAttrStartDate` (`"sdat"`).
nonisolated(unsafe) public let kSecAttrStartDate: CFString = "sdat"

/// `kSecAttrEndDate` (`"edat"`).
nonisolated(unsafe) public let kSecAttrEndDate: CFString = "edat"

/// `kSecAttrIsPrivate` (`"priv"`).
nonisolated(unsafe) public let kSecAttrIsPrivate: CFString = "priv"

/// `kSecAttrIsModifiable` (`"modi"`).
nonisolated(unsafe) public let kSecAttrIsModifiable: CFString = "modi"

/// `kSecAttrAlias` (`"alis"`).
nonisolated(unsafe) public let kSecAttrAlias: CFString = "alis"

/// `kSecAttrHasCustomIcon` (`"cusi"`).
nonisolated(unsafe) public let kSecAttrHasCustomIcon: CFString = "cusi"

/// `kSecAttrScriptCode` (`"scrp"`).
nonisolated(unsafe) public let kSecAttrScriptCode: CFString = "scrp"

/// `kSecAttrProtected` (`"prot"`).
nonisolated(unsafe) public let kSecAttrProtected: CFString = "prot"

/// `kSecAttrTombstone` (`"tomb"`).
nonisolated(unsafe) public let kSecAttrTombstone: CFString = "tomb"

/// `kSecAttrMultiUser` (`"musr"`).
nonisolated(unsafe) public let kSecAttrMultiUser: CFString = "musr"

/// `kSecAttrSHA1` (`"sha1"`).
nonisolated(unsafe) public let kSecAttrSHA1: CFString = "sha1"

/// `kSecAttrCanSignRecover` (`"snrc"`).
nonisolated(unsafe) public let kSecAttrCanSignRecover: CFString = "snrc"

/// `kSecAttrCanVerifyRecover` (`"vyrc"`).
nonisolated(unsafe) public let kSecAttrCanVerifyRecover: CFString = "vyrc"

/// `kSecAttrAccessGroupToken` (`"com.apple.token"`): the read-only access group of token items
nonisolated(unsafe) public let kSecAttrAccessGroupToken: CFString = "com.apple.token"

/// `kSecAttrTokenIDSecureEnclave` (`"com.apple.setoken"`): the Secure Enclave token
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave: CFString = "com.apple.setoken"

// MARK: - Accessibility

/// `kSecAttrAccessibleWhenUnlocked` (`"ak"`): readable while unlocked (the default)
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"

/// `kSecAttrAccessibleAfterFirstUnlock` (`"ck"`): readable after the first unlock
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"

/// `kSecAttrAccessibleAlways` (`"dk"`): always readable (deprecated; the default for certificates)
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = "dk"

/// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` (`"aku"`): readable while unlocked, never leaves the device
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"

/// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` (`"cku"`): readable after the first unlock, never leaves the device
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"

/// `kSecAttrAccessibleAlwaysThisDeviceOnly` (`"dku"`): always readable, never leaves the device (deprecated)
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = "dku"

/// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly` (`"akpu"`): needs a passcode (passphrase); destroyed when it is removed
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"

// MARK: - Protocols

/// `kSecAttrProtocolFTP` (`"ftp "`).
nonisolated(unsafe) public let kSecAttrProtocolFTP: CFString = "ftp "

/// `kSecAttrProtocolFTPAccount` (`"ftpa"`).
nonisolated(unsafe) public let kSecAttrProtocolFTPAccount: CFString = "ftpa"

/// `kSecAttrProtocolHTTP` (`"http"`).
nonisolated(unsafe) public let kSecAttrProtocolHTTP: CFString = "http"

/// `kSecAttrProtocolIRC` (`"irc "`).
nonisolated(unsafe) public let kSecAttrProtocolIRC: CFString = "irc "

/// `kSecAttrProtocolNNTP` (`"nntp"`).
nonisolated(unsafe) public let kSecAttrProtocolNNTP: CFString = "nntp"

/// `kSecAttrProtocolPOP3` (`"pop3"`).
nonisolated(unsafe) public let kSecAttrProtocolPOP3: CFString = "pop3"

/// `kSecAttrProtocolSMTP` (`"smtp"`).
nonisolated(unsafe) public let kSecAttrProtocolSMTP: CFString = "smtp"

/// `kSecAttrProtocolSOCKS` (`"sox "`).
nonisolated(unsafe) public let kSecAttrProtocolSOCKS: CFString = "sox "

/// `kSecAttrProtocolIMAP` (`"imap"`).
nonisolated(unsafe) public let kSecAttrProtocolIMAP: CFString = "imap"

/// `kSecAttrProtocolLDAP` (`"ldap"`).
nonisolated(unsafe) public let kSecAttrProtocolLDAP: CFString = "ldap"

/// `kSecAttrProtocolAppleTalk` (`"atlk"`).
nonisolated(unsafe) public let kSecAttrProtocolAppleTalk: CFString = "atlk"

/// `kSecAttrProtocolAFP` (`"afp "`).
nonisolated(unsafe) public let kSecAttrProtocolAFP: CFString = "afp "

/// `kSecAttrProtocolTelnet` (`"teln"`).
nonisolated(unsafe) public let kSecAttrProtocolTelnet: CFString = "teln"

/// `kSecAttrProtocolSSH` (`"ssh "`).
nonisolated(unsafe) public let kSecAttrProtocolSSH: CFString = "ssh "

/// `kSecAttrProtocolFTPS` (`"ftps"`).
nonisolated(unsafe) public let kSecAttrProtocolFTPS: CFString = "ftps"

/// `kSecAttrProtocolHTTPS` (`"htps"`).
nonisolated(unsafe) public let kSecAttrProtocolHTTPS: CFString = "htps"

/// `kSecAttrProtocolHTTPProxy` (`"htpx"`).
nonisolated(unsafe) public let kSecAttrProtocolHTTPProxy: CFString = "htpx"

/// `kSecAttrProtocolHTTPSProxy` (`"htsx"`).
nonisolated(unsafe) public let kSecAttrProtocolHTTPSProxy: CFString = "htsx"

/// `kSecAttrProtocolFTPProxy` (`"ftpx"`).
nonisolated(unsafe) public let kSecAttrProtocolFTPProxy: CFString = "ftpx"

/// `kSecAttrProtocolSMB` (`"smb "`).
nonisolated(unsafe) public let kSecAttrProtocolSMB: CFString = "smb "

/// `kSecAttrProtocolRTSP` (`"rtsp"`).
nonisolated(unsafe) public let kSecAttrProtocolRTSP: CFString = "rtsp"

/// `kSecAttrProtocolRTSPProxy` (`"rtsx"`).
nonisolated(unsafe) public let kSecAttrProtocolRTSPProxy: CFString = "rtsx"

/// `kSecAttrProtocolDAAP` (`"daap"`).
nonisolated(unsafe) public let kSecAttrProtocolDAAP: CFString = "daap"

/// `kSecAttrProtocolEPPC` (`"eppc"`).
nonisolated(unsafe) public let kSecAttrProtocolEPPC: CFString = "eppc"

/// `kSecAttrProtocolIPP` (`"ipp "`).
nonisolated(unsafe) public let kSecAttrProtocolIPP: CFString = "ipp "

/// `kSecAttrProtocolNNTPS` (`"ntps"`).
nonisolated(unsafe) public let kSecAttrProtocolNNTPS: CFString = "ntps"

/// `kSecAttrProtocolLDAPS` (`"ldps"`).
nonisolated(unsafe) public let kSecAttrProtocolLDAPS: CFString = "ldps"

/// `kSecAttrProtocolTelnetS` (`"tels"`).
nonisolated(unsafe) public let kSecAttrProtocolTelnetS: CFString = "tels"

/// `kSecAttrProtocolIMAPS` (`"imps"`).
nonisolated(unsafe) public let kSecAttrProtocolIMAPS: CFString = "imps"

/// `kSecAttrProtocolIRCS` (`"ircs"`).
nonisolated(unsafe) public let kSecAttrProtocolIRCS: CFString = "ircs"

/// `kSecAttrProtocolPOP3S` (`"pops"`).
nonisolated(unsafe) public let kSecAttrProtocolPOP3S: CFString = "pops"

// MARK: - Authentication types

/// `kSecAttrAuthenticationTypeNTLM` (`"ntlm"`).
nonisolated(unsafe) public let kSecAttrAuthenticationTypeNTLM: CFString = "ntlm"

/// `kSecAttrAuthenticationTypeMSN` (`"msna"`).
nonisolated(unsafe) public let kSecAttrAuthenticationTypeMSN: CFString = "msna"

/// `kSecAttrAuthenticationTypeDPA` (`"dpaa"`).
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDPA: CFString = "dpaa"

/// `kSecAttrAuthenticationTypeRPA` (`"rpaa"`).
nonisolated(unsafe) public let kSecAttrAuthenticationTypeRPA: CFString = "rpaa"

/// `kSecAttrAuthenticationTypeHTTPBasic` (`"http"`).
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPBasic: CFString = "http"

/// `kSecAttrAuthenticationTypeHTTPDigest` (`"httd"`).
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPDigest: CFString = "httd"

/// `kSecAttrAuthenticationTypeHTMLForm` (`"form"`).
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTMLForm: CFString = "form"

/// `kSecAttrAuthenticationTypeDefault` (`"dflt"`).
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDefault: CFString = "dflt"

// MARK: - Key types and classes

/// `kSecAttrKeyTypeRSA` (`"42"`).
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = "42"

/// `kSecAttrKeyTypeEC` (`"73"`).
nonisolated(unsafe) public let kSecAttrKeyTypeEC: CFString = "73"

/// `kSecAttrKeyTypeECSECPrimeRandom` (`"73"`).
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom: CFString = "73"

/// `kSecAttrKeyTypeEd25519` (`"105"`).
nonisolated(unsafe) public let kSecAttrKeyTypeEd25519: CFString = "105"

/// `kSecAttrKeyTypeX25519` (`"106"`).
nonisolated(unsafe) public let kSecAttrKeyTypeX25519: CFString = "106"

/// `kSecAttrKeyTypeEd448` (`"107"`).
nonisolated(unsafe) public let kSecAttrKeyTypeEd448: CFString = "107"

/// `kSecAttrKeyTypeX448` (`"108"`).
nonisolated(unsafe) public let kSecAttrKeyTypeX448: CFString = "108"

/// `kSecAttrKeyClassPublic` (`"0"`).
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = "0"

/// `kSecAttrKeyClassPrivate` (`"1"`).
nonisolated(unsafe) public let kSecAttrKeyClassPrivate: CFString = "1"

/// `kSecAttrKeyClassSymmetric` (`"2"`).
nonisolated(unsafe) public let kSecAttrKeyClassSymmetric: CFString = "2"

// MARK: - Search, return, value and use keys

/// `kSecMatchLimit` (`"m_Limit"`): how many items SecItemCopyMatching returns
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"

/// `kSecMatchLimitOne` (`"m_LimitOne"`): one item (the default)
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"

/// `kSecMatchLimitAll` (`"m_LimitAll"`): every match
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"

/// `kSecMatchCaseInsensitive` (`"m_CaseInsensitive"`): accepted and ignored, as by the data-protection keychain
nonisolated(unsafe) public let kSecMatchCaseInsensitive: CFString = "m_CaseInsensitive"

/// `kSecMatchItemList` (`"m_ItemList"`): macOS file keychain only; ignored
nonisolated(unsafe) public let kSecMatchItemList: CFString = "m_ItemList"

/// `kSecMatchSearchList` (`"m_SearchList"`): macOS file keychain only; ignored
nonisolated(unsafe) public let kSecMatchSearchList: CFString = "m_SearchList"

/// `kSecMatchPolicy` (`"m_Policy"`): certificate policy filter
nonisolated(unsafe) public let kSecMatchPolicy: CFString = "m_Policy"

/// `kSecMatchIssuers` (`"m_Issuers"`): certificate issuer filter
nonisolated(unsafe) public let kSecMatchIssuers: CFString = "m_Issuers"

/// `kSecMatchEmailAddressIfPresent` (`"m_EmailAddressIfPresent"`).
nonisolated(unsafe) public let kSecMatchEmailAddressIfPresent: CFString = "m_EmailAddressIfPresent"

/// `kSecMatchSubjectContains` (`"m_SubjectContains"`).
nonisolated(unsafe) public let kSecMatchSubjectContains: CFString = "m_SubjectContains"

/// `kSecMatchSubjectStartsWith` (`"m_SubjectStartsWith"`).
nonisolated(unsafe) public let kSecMatchSubjectStartsWith: CFString = "m_SubjectStartsWith"

/// `kSecMatchSubjectEndsWith` (`"m_SubjectEndsWith"`).
nonisolated(unsafe) public let kSecMatchSubjectEndsWith: CFString = "m_SubjectEndsWith"

/// `kSecMatchSubjectWholeString` (`"m_SubjectWholeString"`).
nonisolated(unsafe) public let kSecMatchSubjectWholeString: CFString = "m_SubjectWholeString"

/// `kSecMatchDiacriticInsensitive` (`"m_DiacriticInsensitive"`).
nonisolated(unsafe) public let kSecMatchDiacriticInsensitive: CFString = "m_DiacriticInsensitive"

/// `kSecMatchWidthInsensitive` (`"m_WidthInsensitive"`).
nonisolated(unsafe) public let kSecMatchWidthInsensitive: CFString = "m_WidthInsensitive"

/// `kSecMatchHostOrSubdomainOfHost` (`"m_HostOrSubdomainOfHost"`): internet passwords whose server is the host or a subdomain of it
nonisolated(unsafe) public let kSecMatchHostOrSubdomainOfHost: CFString = "m_HostOrSubdomainOfHost"

/// `kSecMatchTrustedOnly` (`"m_TrustedOnly"`).
nonisolated(unsafe) public let kSecMatchTrustedOnly: CFString = "m_TrustedOnly"

/// `kSecMatchValidOnDate` (`"m_ValidOnDate"`).
nonisolated(unsafe) public let kSecMatchValidOnDate: CFString = "m_ValidOnDate"

/// `kSecReturnData` (`"r_Data"`): return the item's data (a CFBoolean)
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"

/// `kSecReturnAttributes` (`"r_Attributes"`): return the attributes
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes"

/// `kSecReturnRef` (`"r_Ref"`): return a reference object
nonisolated(unsafe) public let kSecReturnRef: CFString = "r_Ref"

/// `kSecReturnPersistentRef` (`"r_PersistentRef"`): return a persistent reference
nonisolated(unsafe) public let kSecReturnPersistentRef: CFString = "r_PersistentRef"

/// `kSecValueData` (`"v_Data"`): the item's secret data (CFData)
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"

/// `kSecValueRef` (`"v_Ref"`): a SecKey, SecCertificate or SecIdentity
nonisolated(unsafe) public let kSecValueRef: CFString = "v_Ref"

/// `kSecValuePersistentRef` (`"v_PersistentRef"`): a persistent reference (CFData)
nonisolated(unsafe) public let kSecValuePersistentRef: CFString = "v_PersistentRef"

/// `kSecUseAuthenticationUI` (`"u_AuthUI"`): whether authentication UI may be shown
nonisolated(unsafe) public let kSecUseAuthenticationUI: CFString = "u_AuthUI"

/// `kSecUseAuthenticationUIAllow` (`"u_AuthUIA"`).
nonisolated(unsafe) public let kSecUseAuthenticationUIAllow: CFString = "u_AuthUIA"

/// `kSecUseAuthenticationUIFail` (`"u_AuthUIF"`).
nonisolated(unsafe) public let kSecUseAuthenticationUIFail: CFString = "u_AuthUIF"

/// `kSecUseAuthenticationUISkip` (`"u_AuthUIS"`).
nonisolated(unsafe) public let kSecUseAuthenticationUISkip: CFString = "u_AuthUIS"

/// `kSecUseAuthenticationContext` (`"u_AuthCtx"`): an LAContext
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = "u_AuthCtx"

/// `kSecUseOperationPrompt` (`"u_OpPrompt"`): deprecated prompt text
nonisolated(unsafe) public let kSecUseOperationPrompt: CFString = "u_OpPrompt"

/// `kSecUseNoAuthenticationUI` (`"u_NoAuthUI"`): deprecated; true means UI fail
nonisolated(unsafe) public let kSecUseNoAuthenticationUI: CFString = "u_NoAuthUI"

/// `kSecUseDataProtectionKeychain` (`"nleg"`): macOS routing key; accepted and ignored here
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"

/// `kSecUseItemList` (`"u_ItemList"`): refused by the data-protection keychain
nonisolated(unsafe) public let kSecUseItemList: CFString = "u_ItemList"

/// `kSecUseKeychain` (`"u_Keychain"`): macOS file keychain only
nonisolated(unsafe) public let kSecUseKeychain: CFString = "u_Keychain"

// MARK: - Key generation

/// `kSecPrivateKeyAttrs` (`"private"`): attributes of the private key in SecKeyCreateRandomKey
nonisolated(unsafe) public let kSecPrivateKeyAttrs: CFString = "private"

/// `kSecPublicKeyAttrs` (`"public"`): attributes of the public key
nonisolated(unsafe) public let kSecPublicKeyAttrs: CFString = "public"

#endif
