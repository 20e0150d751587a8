import Foundation

/// What Apple's keychain allows and assumes for each item class: the attributes a class accepts,
/// the attributes that make up its primary key, and the defaults applied when an item is added.
public struct ItemSchema: Sendable {
    /// The class this schema describes.
    public let itemClass: ItemClass
    /// Every attribute an item of this class may carry.
    public let attributes: Set<AttributeKey>
    /// The attributes whose values together must be unique among live items of the class.
    public let primaryKey: [AttributeKey]

    /// The schema of a class. For ``ItemClass/identity`` it is the union of the certificate and
    /// key schemas, with the certificate's primary key.
    public static func of(_ itemClass: ItemClass) -> ItemSchema {
        switch itemClass {
        case .genericPassword: genericPassword
        case .internetPassword: internetPassword
        case .certificate: certificate
        case .key: key
        case .identity: identity
        }
    }

    /// Whether an item of this class may carry the attribute.
    public func accepts(_ key: AttributeKey) -> Bool { attributes.contains(key) }

    // MARK: - The schemas

    private static let common: Set<AttributeKey> = [
        .accessGroup, .synchronizable, .syncViewHint, .tokenID, .multiUser, .sharingGroup,
        .accessible, .accessControl, .creationDate, .modificationDate, .label, .sha1, .tombstone
    ]
    private static let commonPrimaryKey: [AttributeKey] = [
        .accessGroup, .synchronizable, .syncViewHint, .tokenID, .multiUser, .sharingGroup
    ]
    private static let password: Set<AttributeKey> = [
        .itemDescription, .comment, .creator, .type, .scriptCode, .alias, .isInvisible,
        .isNegative, .hasCustomIcon, .protected, .account
    ]

    static let genericPassword = ItemSchema(
        itemClass: .genericPassword,
        attributes: common.union(password).union([.service, .generic]),
        primaryKey: [.account, .service] + commonPrimaryKey)

    static let internetPassword = ItemSchema(
        itemClass: .internetPassword,
        attributes: common.union(password).union([
            .securityDomain, .server, .protocol, .authenticationType, .port, .path,
            "binn", "bini", "bin0", "bin1", "bin2", "bin3"
        ]),
        primaryKey: [.account, .securityDomain, .server, .protocol, .authenticationType, .port, .path]
            + commonPrimaryKey)

    static let certificate = ItemSchema(
        itemClass: .certificate,
        attributes: common.union([
            .certificateType, .certificateEncoding, .subject, .issuer, .serialNumber,
            .subjectKeyID, .publicKeyHash, .alias
        ]),
        primaryKey: [.certificateType, .issuer, .serialNumber] + commonPrimaryKey)

    static let key = ItemSchema(
        itemClass: .key,
        attributes: common.union([
            .keyClass, .applicationLabel, .applicationTag, .creator, .type, .keySizeInBits,
            .effectiveKeySize, .startDate, .endDate, .isPermanent, .isPrivate, .isModifiable,
            .isSensitive, .wasAlwaysSensitive, .isExtractable, .wasNeverExtractable, .canEncrypt,
            .canDecrypt, .canDerive, .canSign, .canVerify, .canSignRecover, .canVerifyRecover,
            .canWrap, .canUnwrap, .alias
        ]),
        primaryKey: [
            .keyClass, .applicationLabel, .applicationTag, .creator, .type, .keySizeInBits,
            .effectiveKeySize, .startDate, .endDate
        ] + commonPrimaryKey)

    static let identity = ItemSchema(
        itemClass: .identity,
        attributes: certificate.attributes.union(key.attributes),
        primaryKey: certificate.primaryKey)

    // MARK: - Defaults

    /// The values Apple's keychain stores for attributes an added item leaves out (`query_pre_add`).
    /// The access group, accessibility and dates depend on the caller and the clock, and are
    /// applied by the engine.
    public var defaults: [AttributeKey: AttributeValue] {
        var values: [AttributeKey: AttributeValue] = [.synchronizable: 0, .tombstone: 0, .multiUser: .data(Data())]
        switch itemClass {
        case .genericPassword:
            values[.account] = ""
            values[.service] = ""
        case .internetPassword:
            for key in [AttributeKey.account, .securityDomain, .server, .authenticationType, .path] { values[key] = "" }
            values[.protocol] = 0
            values[.port] = 0
        case .certificate:
            values[.issuer] = .data(Data())
            values[.serialNumber] = .data(Data())
            values[.certificateType] = 0
        case .key:
            values[.applicationTag] = ""
            values[.applicationLabel] = .data(Data())
            for key in [AttributeKey.keyClass, .keySizeInBits, .effectiveKeySize, .creator, .type] { values[key] = 0 }
            values[.startDate] = .date(Date(timeIntervalSinceReferenceDate: 0))
            values[.endDate] = .date(Date(timeIntervalSinceReferenceDate: 0))
        case .identity:
            break
        }
        return values
    }
}
