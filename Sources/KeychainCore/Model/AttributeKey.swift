/// The name of a keychain attribute: Apple's raw four-character key (`kSecAttrAccount` is `"acct"`).
///
/// Every attribute Apple's data-protection keychain stores has a static member here; which
/// classes accept which attributes is decided by ``ItemSchema``.
public struct AttributeKey: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// Apple's raw name, for example `"acct"`.
    public let rawValue: String

    /// Creates a key from Apple's raw name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a key from a literal raw name: `let key: AttributeKey = "acct"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The raw name.
    public var description: String { rawValue }

    /// Orders keys by raw name, so encodings are deterministic.
    public static func < (lhs: AttributeKey, rhs: AttributeKey) -> Bool { lhs.rawValue < rhs.rawValue }

    /// How values of this attribute are stored and compared.
    public var kind: AttributeKind { AttributeKind.of(self) }
}

// MARK: - Attributes of every class

extension AttributeKey {
    /// `kSecAttrAccessGroup`: the access group that owns the item. Part of every primary key.
    public static let accessGroup: AttributeKey = "agrp"
    /// `kSecAttrSynchronizable`: whether the item syncs (0 or 1). Part of every primary key.
    public static let synchronizable: AttributeKey = "sync"
    /// `kSecAttrSyncViewHint`. Part of every primary key.
    public static let syncViewHint: AttributeKey = "vwht"
    /// `kSecAttrTokenID`. Part of every primary key.
    public static let tokenID: AttributeKey = "tkid"
    /// `kSecAttrAccessControl` (`"accc"`): the item's ``AccessPolicy``, stored encrypted with its
    /// metadata (set it with ``NewItem/protected(by:)``, read it with ``FoundItem/accessPolicy``).
    public static let accessControl: AttributeKey = "accc"
    /// `kSecAttrMultiUser` (internal): the user the item belongs to. Part of every primary key.
    public static let multiUser: AttributeKey = "musr"
    /// `kSecAttrSharingGroup`. Part of every primary key.
    public static let sharingGroup: AttributeKey = "ggrp"
    /// `kSecAttrAccessible`: the item's accessibility (raw value of ``Accessibility``).
    public static let accessible: AttributeKey = "pdmn"
    /// `kSecAttrCreationDate`, set when the item is added.
    public static let creationDate: AttributeKey = "cdat"
    /// `kSecAttrModificationDate`, set on add and on every update.
    public static let modificationDate: AttributeKey = "mdat"
    /// `kSecAttrLabel`.
    public static let label: AttributeKey = "labl"
    /// `kSecAttrSHA1` (internal): a digest of the item, returned with data and attributes.
    public static let sha1: AttributeKey = "sha1"
    /// `kSecAttrTombstone` (internal).
    public static let tombstone: AttributeKey = "tomb"
    /// `kSecAttrAlias`.
    public static let alias: AttributeKey = "alis"
}

// MARK: - Password attributes

extension AttributeKey {
    /// `kSecAttrDescription`.
    public static let itemDescription: AttributeKey = "desc"
    /// `kSecAttrComment`.
    public static let comment: AttributeKey = "icmt"
    /// `kSecAttrCreator` (a four-character code as a number; for keys, `kSecAttrKeyCreator`).
    public static let creator: AttributeKey = "crtr"
    /// `kSecAttrType` (a four-character code as a number; for keys, `kSecAttrKeyType`).
    public static let type: AttributeKey = "type"
    /// `kSecAttrScriptCode`.
    public static let scriptCode: AttributeKey = "scrp"
    /// `kSecAttrIsInvisible`.
    public static let isInvisible: AttributeKey = "invi"
    /// `kSecAttrIsNegative`.
    public static let isNegative: AttributeKey = "nega"
    /// `kSecAttrHasCustomIcon`.
    public static let hasCustomIcon: AttributeKey = "cusi"
    /// `kSecAttrProtected`.
    public static let protected: AttributeKey = "prot"
    /// `kSecAttrAccount`. Part of the primary key of both password classes.
    public static let account: AttributeKey = "acct"
    /// `kSecAttrService`. Part of the generic-password primary key.
    public static let service: AttributeKey = "svce"
    /// `kSecAttrGeneric`: free-form data, not part of the primary key.
    public static let generic: AttributeKey = "gena"
    /// `kSecAttrSecurityDomain`.
    public static let securityDomain: AttributeKey = "sdmn"
    /// `kSecAttrServer`.
    public static let server: AttributeKey = "srvr"
    /// `kSecAttrProtocol` (a four-character string constant such as `"htps"`).
    public static let `protocol`: AttributeKey = "ptcl"
    /// `kSecAttrAuthenticationType`.
    public static let authenticationType: AttributeKey = "atyp"
    /// `kSecAttrPort`.
    public static let port: AttributeKey = "port"
    /// `kSecAttrPath`.
    public static let path: AttributeKey = "path"
}

// MARK: - Certificate attributes

extension AttributeKey {
    /// `kSecAttrCertificateType`. Part of the certificate primary key.
    public static let certificateType: AttributeKey = "ctyp"
    /// `kSecAttrCertificateEncoding`.
    public static let certificateEncoding: AttributeKey = "cenc"
    /// `kSecAttrSubject`.
    public static let subject: AttributeKey = "subj"
    /// `kSecAttrIssuer`. Part of the certificate primary key.
    public static let issuer: AttributeKey = "issr"
    /// `kSecAttrSerialNumber`. Part of the certificate primary key.
    public static let serialNumber: AttributeKey = "slnr"
    /// `kSecAttrSubjectKeyID`.
    public static let subjectKeyID: AttributeKey = "skid"
    /// `kSecAttrPublicKeyHash`: joins a certificate to its private key in an identity.
    public static let publicKeyHash: AttributeKey = "pkhh"
}

// MARK: - Key attributes

extension AttributeKey {
    /// `kSecAttrKeyClass`: 0 public, 1 private, 2 symmetric.
    public static let keyClass: AttributeKey = "kcls"
    /// `kSecAttrApplicationLabel`: for asymmetric keys, the SHA-1 of the public key.
    public static let applicationLabel: AttributeKey = "klbl"
    /// `kSecAttrApplicationTag`.
    public static let applicationTag: AttributeKey = "atag"
    /// `kSecAttrKeySizeInBits`.
    public static let keySizeInBits: AttributeKey = "bsiz"
    /// `kSecAttrEffectiveKeySize`.
    public static let effectiveKeySize: AttributeKey = "esiz"
    /// `kSecAttrStartDate` (internal).
    public static let startDate: AttributeKey = "sdat"
    /// `kSecAttrEndDate` (internal).
    public static let endDate: AttributeKey = "edat"
    /// `kSecAttrIsPermanent`.
    public static let isPermanent: AttributeKey = "perm"
    /// `kSecAttrIsPrivate` (internal).
    public static let isPrivate: AttributeKey = "priv"
    /// `kSecAttrIsModifiable` (internal).
    public static let isModifiable: AttributeKey = "modi"
    /// `kSecAttrIsSensitive`.
    public static let isSensitive: AttributeKey = "sens"
    /// `kSecAttrWasAlwaysSensitive`.
    public static let wasAlwaysSensitive: AttributeKey = "asen"
    /// `kSecAttrIsExtractable`.
    public static let isExtractable: AttributeKey = "extr"
    /// `kSecAttrWasNeverExtractable`.
    public static let wasNeverExtractable: AttributeKey = "next"
    /// `kSecAttrCanEncrypt`.
    public static let canEncrypt: AttributeKey = "encr"
    /// `kSecAttrCanDecrypt`.
    public static let canDecrypt: AttributeKey = "decr"
    /// `kSecAttrCanDerive`.
    public static let canDerive: AttributeKey = "drve"
    /// `kSecAttrCanSign`.
    public static let canSign: AttributeKey = "sign"
    /// `kSecAttrCanVerify`.
    public static let canVerify: AttributeKey = "vrfy"
    /// `kSecAttrCanSignRecover` (SPI).
    public static let canSignRecover: AttributeKey = "snrc"
    /// `kSecAttrCanVerifyRecover` (SPI).
    public static let canVerifyRecover: AttributeKey = "vyrc"
    /// `kSecAttrCanWrap`.
    public static let canWrap: AttributeKey = "wrap"
    /// `kSecAttrCanUnwrap`.
    public static let canUnwrap: AttributeKey = "unwp"
}
