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
    public func find(_ query: Query, returning options: ReturnOptions = [.attributes]) throws(KeychainError) -> [FoundItem] {
        let resolved = try ResolvedQuery(query)
        let found = try read { db -> [FoundItem] in
            if resolved.itemClass == .identity {
                return try self.matchingIdentities(resolved, limit: resolved.limit.rowLimit, db).map { pair in
                    try self.identityResult(certificate: self.row(id: pair.certificate, db), key: self.row(id: pair.key, db), returning: options)
                }
            }
            return try self.matchingRows(resolved, limit: resolved.limit.rowLimit, db).map { row in
                self.result(try self.open(row, includingData: options.contains(.data)), returning: options)
            }
        }
        guard !found.isEmpty else { throw .itemNotFound() }
        return found
    }

    /// Finds every match like ``find(_:returning:)``, but returns an empty array instead of
    /// throwing `.itemNotFound`.
    public func findAll(_ query: Query, returning options: ReturnOptions = [.attributes]) throws(KeychainError) -> [FoundItem] {
        do {
            return try find(query, returning: options)
        } catch where error.code == .itemNotFound {
            return []
        }
    }

    /// Finds the first matching item, or `nil` when none matches.
    public func findFirst(_ query: Query, returning options: ReturnOptions = [.attributes]) throws(KeychainError) -> FoundItem? {
        var first = query
        first.limit = .one
        return try findAll(first, returning: options).first
    }

    /// An identity: the certificate's attributes over the key's, the certificate's data.
    private func identityResult(certificate: ItemRow, key: ItemRow, returning options: ReturnOptions) throws -> FoundItem {
        let openedCertificate = try open(certificate, includingData: options.contains(.data))
        let openedKey = try open(key, includingData: false)
        let attributes = openedKey.attributes.merging(openedCertificate.attributes) { _, certificateValue in certificateValue }
        return FoundItem(
            itemClass: .identity,
            persistentReference: PersistentReference(itemClass: .identity, uuid: certificate.itemID),
            attributes: Self.returnedAttributes(attributes, options: options),
            data: options.contains(.data) ? (openedCertificate.data ?? Data()) : nil,
            identityComponents: IdentityComponents(certificate: certificate.persistentReference, privateKey: key.persistentReference))
    }
}
