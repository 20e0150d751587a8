import Foundation

final class Vault {
    let lock = NSLock()
    let defaults = UserDefaults.standard

    // No SecItem call in this file: the module's functions delete and add.
    func set(_ value: Data, key: String) -> Bool {
        _ = remove(key) // expect: delete-then-add
        return add(value, key: key)
    }

    // Another key: a move.
    func move(_ value: Data, from old: String, to new: String) -> Bool {
        guard remove(old) else { return false }
        return add(value, key: new)
    }

    // Another receiver's `set` (UserDefaults), not the vault's.
    func forget(_ key: String) {
        _ = remove(key)
        defaults.set(true, forKey: key)
    }

    // `set` deletes and adds: a replacement, not a deletion, so calling it then adding is no report.
    func setTwice(_ value: Data, key: String) -> Bool {
        _ = set(value, key: key)
        return add(value, key: key)
    }
}
