import Crypto
import Foundation
import GRDB

/// Moves every user-tier item from the old class keys to new ones, inside the transaction that
/// writes the new keybag: each item's metadata and secret keys are unwrapped (AES-KW) with the
/// old class subkeys and wrapped with the new ones. The items' ciphertexts, row versions and
/// seals stay as they are; only the two wrapped-key columns change, and the state digest
/// follows them.
///
/// After it commits, an old keybag — from a backup, a snapshot, or a splice into the live file —
/// opens nothing that is in the file, whatever passphrase or ticket goes with it.
struct ItemKeyRotation {
    let old: [Accessibility: ClassKeys]
    let new: [Accessibility: ClassKeys]

    /// What a rotation did.
    struct Outcome {
        var rewrapped = 0
        /// Rows whose keys did not unwrap with the old class keys: they were already damaged
        /// (edited outside the library) and stay as they are, for verify to report.
        var damaged = 0
    }

    /// Rewraps the rows of every class in both ``old`` and ``new``, in id order, in chunks.
    func run(_ db: Database, stateDigest: StateDigest) throws -> Outcome {
        var outcome = Outcome()
        var removed: [[UInt8]] = []
        var added: [[UInt8]] = []
        let rewrite = try ItemTable.WrappedKeyRewrite(db)
        var lastID: Int64 = .min
        while true {
            let chunk = try rewrite.rows(after: lastID)
            guard let last = chunk.last else { break }
            lastID = last[0] ?? .max
            for raw in chunk {
                guard let rawAccessibility: String = raw[3],
                    let accessibility = Accessibility(rawValue: rawAccessibility),
                    let oldKeys = old[accessibility], let newKeys = new[accessibility]
                else { continue }
                guard var row = try? ItemRow(row: raw), let rowID = row.rowID,
                    let metadataKey = try? AES.KeyWrap.unwrap(row.sealed.wrappedMetadataKey, using: oldKeys.metadata),
                    let secretKey = try? AES.KeyWrap.unwrap(row.sealed.wrappedSecretKey, using: oldKeys.secret)
                else {
                    outcome.damaged += 1
                    continue
                }
                row.sealed.wrappedMetadataKey = try AES.KeyWrap.wrap(metadataKey, using: newKeys.metadata)
                row.sealed.wrappedSecretKey = try AES.KeyWrap.wrap(secretKey, using: newKeys.secret)
                try rewrite.setWrappedKeys(
                    metadata: row.sealed.wrappedMetadataKey, secret: row.sealed.wrappedSecretKey, id: rowID)
                removed.append(stateDigest.fingerprint(raw))
                added.append(stateDigest.fingerprint(values: row.storedValues(rowID: rowID)))
                outcome.rewrapped += 1
            }
        }
        try stateDigest.record(removing: removed, adding: added, db)
        return outcome
    }
}
