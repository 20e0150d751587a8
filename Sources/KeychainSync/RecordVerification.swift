import Foundation
import KeychainCore

extension SyncServer.StoredRecord {
    /// Opens and checks one record as the server returned it, against the verified `manifest`
    /// and what this device agreed with about it (`agreed`): a well-formed id and version, a body
    /// that opens under `key` for exactly this record and version, written no later than the
    /// manifest and not a deletion the circle compacted away, not older than (or at the same
    /// version different from) what this device agreed with, an item that may sync, under its own id.
    ///
    /// - Throws: ``SyncError/Code/tampered`` for a record that fails any of these.
    func verified(
        against manifest: Manifest, key: CircleKey, agreed: SyncState.Entry?,
        keychain: Keychain
    ) throws(SyncError) -> (content: RecordContent, writtenAt: Int64) {
        guard recordID.count == BlindIndexLength.bytes, version > 0, version < Manifest.counterLimit else {
            throw SyncError.tampered("a record with a malformed id or version")
        }
        let (content, writtenAt) = try RecordSealer.openStamped(body, recordID: recordID, version: version, key: key)
        guard writtenAt <= manifest.counter, content.kind == .value || writtenAt > manifest.compactedThrough else {
            throw SyncError.tampered(
                "a record written after the circle's manifest, or a deletion the circle compacted away")
        }
        if let agreed, agreed.version > 0 {
            if version < agreed.version {
                throw SyncError.tampered("an older version of a record than this device already agreed with (a replay)")
            }
            if version == agreed.version && content.digest != agreed.digest {
                throw SyncError.tampered(
                    "a record version whose content differs from what this device agreed with at that version (the server showed devices different histories)"
                )
            }
        }
        guard keychain.acceptsSynchronized(content.item) else {
            throw SyncError.tampered("a record holding an item that may not sync or is not valid for its class")
        }
        guard content.item.identifier(key: key.identifierKey) == recordID else {
            throw SyncError.tampered("a record whose item is not the one its id names")
        }
        return (content, writtenAt)
    }
}
