import Foundation
import GRDB

extension Keychain {
    /// Finds items, in insertion order, up to the query's limit.
    ///
    /// Attributes are always decrypted (they verify the row); data only when `returning`
    /// includes ``ReturnOptions/data``. As on Apple platforms, if any matched row's protection
    /// class is unavailable the whole call fails with `.interactionNotAllowed`.
    ///
    /// - Returns: the matches, never empty.
    /// - Throws: `.itemNotFound` when nothing matches; `.noSuchAttribute`, `.invalidParameter`,
    ///   `.noSuchClass` for a malformed query; `.interactionNotAllowed`, `.integrityViolation`.
    public func find(_ query: Query, returning options: ReturnOptions = [.attributes]) throws(KeychainError)
        -> [FoundItem]
    {
        let resolved = try ResolvedQuery(query)
        try adoptItemsWrittenBeforeOwnership(resolved)
        // Rows are read, their attributes decrypted and checked against the query in one snapshot; user authentication and
        // the data's decryption happen after it, so a prompt never holds a transaction open.
        let candidates = try read { db -> [(item: OpenedItem, key: OpenedItem?)] in
            if resolved.itemClass == .identity {
                return try self.matchingIdentities(resolved, limit: resolved.limit.rowLimit, proof: .attributes, db).map
                { pair in
                    (pair.certificate.opened!, pair.key.opened!)
                }
            }
            return try self.matchingItems(resolved, limit: resolved.limit.rowLimit, proof: .attributes, db).map {
                ($0.opened!, nil)
            }
        }
        var found: [FoundItem] = []
        if !options.contains(.data) {
            // Nothing to authenticate or decrypt: the results are built on every core, in order.
            found = ConcurrentMap.map(candidates.count) { index in
                let (item, key) = candidates[index]
                return key.map { self.identityResult(certificate: item, key: $0, returning: options) }
                    ?? self.result(item, returning: options)
            }
        }
        for case (var item, let key) in candidates where options.contains(.data) {
            if options.contains(.data) {
                guard try revealData(of: &item, authentication: resolved.authentication) else { continue }
            }
            found.append(
                key.map { identityResult(certificate: item, key: $0, returning: options) }
                    ?? result(item, returning: options))
        }
        guard !found.isEmpty else { throw .itemNotFound() }
        return found
    }

    /// Decrypts an opened item's data after the authentication its ``AccessPolicy`` asks for.
    /// A key generated inside the keychain reveals no data (empty), whatever is asked.
    /// Returns false when the item is left out (``AuthenticationOptions/Interaction/skip``).
    func revealData(of item: inout OpenedItem, authentication: AuthenticationOptions) throws(KeychainError) -> Bool {
        if item.isTokenKey {
            item.data = Data()
            return true
        }
        try requireIntactPresence(item)
        var presenceKey: PresencePrivateKey?
        if let policy = item.accessPolicy, policy.guardsData {
            guard let granted = try authorize(policy, operation: "data", options: authentication) else { return false }
            presenceKey = granted.presenceKey
        }
        try openData(of: &item, presenceKey: presenceKey)
        return true
    }

    /// Finds every match like ``find(_:returning:)-5byhz``, but returns an empty array instead of
    /// throwing `.itemNotFound`.
    public func findAll(_ query: Query, returning options: ReturnOptions = [.attributes]) throws(KeychainError)
        -> [FoundItem]
    {
        do {
            return try find(query, returning: options)
        } catch  where error.code == .itemNotFound {
            return []
        }
    }

    /// Finds the first matching item, or `nil` when none matches.
    public func findFirst(_ query: Query, returning options: ReturnOptions = [.attributes]) throws(KeychainError)
        -> FoundItem?
    {
        var first = query
        first.limit = .one
        return try findAll(first, returning: options).first
    }

    /// An identity: the certificate's attributes over the key's, the certificate's data.
    private func identityResult(certificate: OpenedItem, key: OpenedItem, returning options: ReturnOptions) -> FoundItem
    {
        let attributes = key.attributes.merging(certificate.attributes) { _, certificateValue in certificateValue }
        return FoundItem(
            itemClass: .identity,
            persistentReference: PersistentReference(itemClass: .identity, uuid: certificate.row.itemID),
            attributes: Self.returnedAttributes(attributes, options: options),
            data: options.contains(.data) ? (certificate.data ?? Data()) : nil,
            identityComponents: IdentityComponents(
                certificate: certificate.row.persistentReference, privateKey: key.row.persistentReference))
    }
}
