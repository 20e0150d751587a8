#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// Finds items.
///
/// The result follows Apple's result-type matrix: nothing, a bare value for one `kSecReturn…` key, a dictionary for
/// several, an array when `kSecMatchLimit` is above one. A `nil` result pointer is accepted.
/// `kSecReturnRef` on keys gives ``SecKey`` objects; `kSecValueRef` with a SecKey finds that
/// key's item.
///
/// - Returns: `errSecSuccess`, `errSecItemNotFound` (-25300), `errSecParam` (-50),
///   `errSecNoSuchClass` (-25306), `errSecNoSuchAttr` (-25303), `errSecUnimplemented` (-4) for
///   certificate filters, `errSecMissingEntitlement` (-34018), and `errSecInteractionNotAllowed`
///   (-25308) when any matched item is locked. A row that fails its integrity check gives
///   `errSecDecode` (-26275) instead of being skipped and deleted as iOS does: we never delete data.
@discardableResult
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    SecItemCall.run("SecItemCopyMatching") { () throws(KeychainError) in
        let request = SecItemDictionary(query)
        try request.checkClientRules(allowsSkip: true)
        let groups = try SecItemAccessGroups(identity: SecItemEnvironment.applicationIdentity)
            .searchGroups(explicit: request.attributes[.accessGroup])
        try request.checkParsed()
        guard !request.useItemList else { throw KeychainError.itemListUnsupported() }
        if let reference = request.persistentReference, !reference.isLegacy, request.hasAttributesBesideReference {
            throw KeychainError.referenceWithAttributes()
        }
        var query = try SecItemQueryBuilder.query(request, groups: groups)
        let hostFilter = try CertificateMatchKeys.check(
            request, itemClass: query.itemClass ?? request.persistentReference?.itemClass)
        if request.returnRef, let itemClass = query.itemClass ?? request.persistentReference?.itemClass,
            itemClass == .certificate || itemClass == .identity
        {
            throw KeychainError.certificateReferencesUnsupported()
        }
        let limit = query.limit
        var options = request.returnOptions
        if hostFilter != nil {
            query.limit = .all
            options.insert(.attributes)
        }
        let keychain = try SecItemEnvironment.keychain()
        var found = try keychain.find(query, returning: options)
        if let host = hostFilter {
            found = Array(found.filter { host.matches($0.attributes[.server]) }.prefix(limit.count ?? .max))
            guard !found.isEmpty else { throw KeychainError.noInternetPasswordForHost() }
        }
        switch limit {
        case .one: result?.pointee = try SecItemResult.value(found[0], request, keychain: keychain)
        case .all, .count: result?.pointee = try SecItemResult.array(found, request, keychain: keychain)
        }
    }
}

extension MatchLimit {
    /// The number of items, or `nil` for all.
    var count: Int? {
        switch self {
        case .one: 1
        case .all: nil
        case .count(let count): count
        }
    }
}

/// The certificate-filtering `kSecMatch…` keys and `kSecMatchHostOrSubdomainOfHost`.
enum CertificateMatchKeys {
    static let certificateOnly = ["m_Policy", "m_Issuers"]
    static let certificateFilters = [
        "m_EmailAddressIfPresent", "m_SubjectContains", "m_SubjectStartsWith",
        "m_SubjectEndsWith", "m_SubjectWholeString", "m_TrustedOnly", "m_ValidOnDate"
    ]

    /// `errSecUnimplemented` where Apple gives it (policy/issuers on other classes, host matching
    /// on other classes) and where certificate parsing would be needed, which this platform
    /// does not do yet. Returns the host filter of an internet-password query.
    static func check(_ request: SecItemDictionary, itemClass: ItemClass?) throws(KeychainError) -> HostFilter? {
        let isCertificate = itemClass == .certificate || itemClass == .identity
        for key in certificateOnly where request.matchKeys[key] != nil {
            throw isCertificate
                ? KeychainError.certificateTrustUnsupported(key: key) : KeychainError.certificateOnlyKey(key: key)
        }
        for key in certificateFilters where request.matchKeys[key] != nil && (isCertificate || itemClass == .key) {
            throw KeychainError.certificateParsingUnsupported(key: key)
        }
        guard let value = request.matchKeys["m_HostOrSubdomainOfHost"] else { return nil }
        guard itemClass == .internetPassword else {
            throw KeychainError.hostMatchOnOtherClass()
        }
        guard let host = SecValue.string(value), !host.isEmpty else {
            throw KeychainError.invalidHostMatch()
        }
        return HostFilter(host: host)
    }
}

/// Matches a server equal to a host or one of its subdomains, ignoring case (host names are).
struct HostFilter {
    let host: String

    func matches(_ server: AttributeValue?) -> Bool {
        guard let server = server?.stringValue?.lowercased() else { return false }
        let host = self.host.lowercased()
        return server == host || server.hasSuffix("." + host)
    }
}
#endif
