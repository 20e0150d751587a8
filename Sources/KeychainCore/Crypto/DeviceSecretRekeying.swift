import Crypto
import Foundation
import GRDB

/// Rewrites everything in the database that the device secret keys, from D to a new D', inside
/// the caller's transaction (``Keychain/bindToTPM(pcrs:passphrase:)``):
///
/// - the keybag: the index key and the `always` class keys rewrapped from KEK_device(D) to
///   KEK_device(D'), the user-tier class keys from KEK_user(D, K_P) to KEK_user(D', K_P)
///   (K_P the passphrase key, or none). The keys themselves do not change, so item ciphertexts,
///   their wrapped item keys and the blind indexes stay as they are. Presence slots are not
///   wrapped by D and are kept;
/// - every row seal that holds under D is recomputed under D' (a seal that does not hold is left
///   as it is, so verify keeps reporting that row);
/// - the state record: the digest of all rows is recomputed under D', plus whatever difference
///   the recorded digest had from the rows under D, so a mismatch stays a mismatch; a record
///   whose MAC does not hold is left as it is;
/// - the header MAC (by the caller, over the new keybag and header).
///
/// Unlock sessions and tickets are derived from D; the caller ends them.
struct DeviceSecretRekeying {
    let old: KeyRing.DeviceKeyed
    let new: KeyRing.DeviceKeyed
    let vaultID: UUID
    /// K_P, when the keychain has a passphrase.
    let passphraseKey: SymmetricKey?

    /// What the row pass did.
    struct Outcome {
        var resealed = 0
        /// Rows that do not parse or whose seal does not hold under D: left as they were.
        var leftAsTheyWere = 0
    }

    /// The keybag with every D-wrapped key rewrapped under D''s KEKs.
    ///
    /// - Throws: `.authFailed` when a user-tier key does not unwrap (a wrong passphrase key),
    ///   `.integrityViolation` when a device-tier key does not.
    func rewrap(_ keybag: [KeybagSlot: Data]) throws(KeychainError) -> [KeybagSlot: Data] {
        let oldDevice = KeyHierarchy.deviceKEK(deviceKey: old.deviceKey, vaultID: vaultID)
        let newDevice = KeyHierarchy.deviceKEK(deviceKey: new.deviceKey, vaultID: vaultID)
        let oldUser = KeyHierarchy.userKEK(deviceKey: old.deviceKey, passphraseKey: passphraseKey, vaultID: vaultID)
        let newUser = KeyHierarchy.userKEK(deviceKey: new.deviceKey, passphraseKey: passphraseKey, vaultID: vaultID)
        var rewrapped: [KeybagSlot: Data] = [:]
        for (slot, wrapped) in keybag {
            switch slot {
            case .presencePublicKey, .presenceEnrollment:
                rewrapped[slot] = wrapped
            case .index, .classKey:
                let isDevice = slot.tier == .device
                let key: SymmetricKey
                do {
                    key = try slot.unwrap(wrapped, with: isDevice ? oldDevice : oldUser, vaultID: vaultID)
                } catch {
                    if isDevice { throw KeychainError.tamperedSlotKey(slot: slot.name) }
                    throw KeychainError.wrongPassphraseDuringRekeying()
                }
                do {
                    rewrapped[slot] = try slot.wrap(key, with: isDevice ? newDevice : newUser, vaultID: vaultID)
                } catch {
                    throw KeychainError.slotKeyWrappingFailed(slot: slot.name, error: error)
                }
            }
        }
        return rewrapped
    }

    /// Reseals every row under D' and carries the state record over to D', in id order, in chunks.
    func resealRowsAndState(_ db: Database) throws -> Outcome {
        var outcome = Outcome()
        var oldSum = StateDigest.zero
        var newSum = StateDigest.zero
        let select = try db.makeStatement(
            sql: "SELECT \(ItemRow.columns) FROM items WHERE id > ? ORDER BY id LIMIT 1000")
        let update = try db.makeStatement(sql: "UPDATE items SET row_seal = ? WHERE id = ?")
        var lastID: Int64 = .min
        while true {
            let chunk = try Row.fetchAll(select, arguments: [lastID])
            guard let last = chunk.last else { break }
            lastID = last[0] ?? .max
            for raw in chunk {
                // The fingerprinted columns do not include the seal: the row's values stay the same.
                oldSum = StateDigest.adding(oldSum, old.stateDigest.fingerprint(raw))
                newSum = StateDigest.adding(newSum, new.stateDigest.fingerprint(raw))
                guard let row = try? ItemRow(row: raw), let rowID = row.rowID, try old.rowSealer.isValid(row, db) else {
                    outcome.leftAsTheyWere += 1
                    continue
                }
                try update.execute(arguments: [
                    new.rowSealer.seal(row, rowID: rowID, tags: try RowSealer.tags(of: rowID, db)), rowID
                ])
                outcome.resealed += 1
            }
        }
        if let (counter, digest, authentic) = try old.stateDigest.recorded(db), authentic {
            let difference = StateDigest.subtracting(digest, oldSum)
            try new.stateDigest.store(counter: counter + 1, digest: StateDigest.adding(newSum, difference), db)
        }
        return outcome
    }
}
