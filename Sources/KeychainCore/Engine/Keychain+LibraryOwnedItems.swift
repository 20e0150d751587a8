import Foundation
import GRDB

extension Keychain {
    /// Takes into `query.owner`'s namespace the items SecureStorage wrote under the names the
    /// query gives before it kept its own items apart (keychains upgraded from format 5 or older).
    ///
    /// Only an item that was in the keychain when it was upgraded to format 6, and that nobody
    /// rewrote since, is taken: the upgrade gave every item then present a tag its row seal
    /// covers (``BlindIndexer/writtenBeforeOwnershipTag``), and any rewrite — an update, an
    /// import that replaces it, a sync — computes the tags afresh without it. An item planted
    /// under the library's names after the upgrade (by an import, the `keychain` tool or an
    /// app) stays an ordinary item that the library never reads.
    ///
    /// Runs before an owned query acts: the move is one write transaction that rewrites each
    /// item with its owner (new primary-key index, tags and ciphertexts; a protected item's data
    /// stays sealed as it was). Nothing happens, and nothing is written, when no such item exists.
    /// - Throws: `.interactionNotAllowed` when such an item's class is locked, as a find would;
    ///   `.integrityViolation` for a row whose seal fails.
    func adoptItemsWrittenBeforeOwnership(_ query: ResolvedQuery) throws(KeychainError) {
        guard let owner = query.owner, query.itemClass != .identity, query.persistentReference == nil else { return }
        var legacy = query
        legacy.owner = nil
        legacy.limit = .all
        let tag = keys.indexer.writtenBeforeOwnershipTag
        let hasCandidates = try read { db in
            !(try self.matchingItems(legacy, limit: nil, proof: .seal, requiringTag: tag, db)).isEmpty
        }
        guard hasCandidates else { return }
        let adopted = try write { db -> Int in
            let matches = try self.matchingItems(legacy, limit: nil, proof: .attributes, requiringTag: tag, db)
            for match in matches {
                guard var item = match.opened, let rowID = item.row.rowID, try keys.rowSealer.isValid(item.row, db),
                    try RowSealer.tags(of: rowID, db).contains(tag)
                else {
                    throw KeychainError.tamperedPreFormat6Item()
                }
                if !item.row.sealed.isPresenceSealed { try self.openData(of: &item) }
                var attributes = item.attributes
                attributes[LibraryOwner.attribute] = owner.attributeValue
                try self.rewrite(item, attributes: attributes, data: item.data, db)
            }
            return matches.count
        }
        logger.notice(
            "took items written before format 6 into the library's own namespace",
            metadata: ["owner": "\(owner)", "count": "\(adopted)"])
    }
}

/// The names SecureStorage gave the items it kept for itself before format 6, as far as they are
/// fixed: the sync state, protected files' keys and migration journals (a database sealer's key
/// is named by its app). An item with such a name that still carries
/// ``BlindIndexer/writtenBeforeOwnershipTag`` is the library's own, not yet taken into its
/// namespace: no app's find returns it and no export carries it.
enum LegacyLibraryNames {
    /// Whether an item of `itemClass` with these decrypted attributes has such a name.
    static func matches(_ itemClass: ItemClass, _ attributes: [AttributeKey: AttributeValue]) -> Bool {
        guard itemClass == .genericPassword, let service = attributes[.service]?.stringValue else { return false }
        let account = attributes[.account]?.stringValue ?? ""
        if service == "KeychainSync" {
            return account == "state" && attributes[.accessGroup]?.stringValue == "com.securestorage.sync"
        }
        if service == "SecureStorage.migrations" { return account.hasPrefix("source:") && account.count == 71 }
        return service.hasPrefix("SecureStorage.files/")
    }
}

extension Keychain {
    /// Whether an opened item is one the library wrote under its fixed names before format 6
    /// and has not taken into its namespace yet (``LegacyLibraryNames``). `provenTags`: the row's
    /// tags when the caller already checked them against its row seal (read and checked here
    /// otherwise).
    func isLegacyLibraryItem(_ item: OpenedItem, provenTags: Set<Data>? = nil, _ db: Database) throws -> Bool {
        guard LibraryOwner.of(item.attributes) == nil, LegacyLibraryNames.matches(item.row.itemClass, item.attributes),
            let rowID = item.row.rowID
        else { return false }
        if let provenTags { return provenTags.contains(keys.indexer.writtenBeforeOwnershipTag) }
        return try RowSealer.tags(of: rowID, db).contains(keys.indexer.writtenBeforeOwnershipTag)
            && keys.rowSealer.isValid(item.row, db)
    }
}
