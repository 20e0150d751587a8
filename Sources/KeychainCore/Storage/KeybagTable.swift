import Foundation
import GRDB

/// The statements over the `keybag` table: one row per ``KeybagSlot`` with its wrapped key (or
/// public value), run in the caller's transaction.
enum KeybagTable {
    /// Every slot and its stored value; `.integrityViolation` for an unknown slot or a value of the wrong type.
    static func slots(in db: Database) throws -> [KeybagSlot: Data] {
        var keybag: [KeybagSlot: Data] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT slot, wrapped_key FROM keybag") {
            guard let slot = KeybagSlot(name: try row.checked(0, "slot", in: "keybag")) else {
                throw KeychainError.tamperedKeybagUnknownSlot()
            }
            keybag[slot] = try row.checked(1, "wrapped_key", in: "keybag")
        }
        return keybag
    }

    /// Inserts each slot, replacing its stored value when it has one.
    static func write(in db: Database, _ slots: [KeybagSlot: Data]) throws {
        for (slot, wrapped) in slots {
            try db.execute(
                sql: "INSERT OR REPLACE INTO keybag (slot, wrapped_key) VALUES (?, ?)", arguments: [slot.name, wrapped])
        }
    }

    /// Deletes one slot.
    static func delete(in db: Database, slot: KeybagSlot) throws {
        try db.execute(sql: "DELETE FROM keybag WHERE slot = ?", arguments: [slot.name])
    }
}
