import Crypto
import Foundation
import SecureStorageFoundation

extension Keychain {
    /// A value that changes exactly when the keychain's passphrase-protected class keys are
    /// replaced: when a passphrase is set, changed or removed (in this or another process).
    /// Locking, unlocking and enrolling an authentication method leave it as it is.
    ///
    /// Keys kept *in* the keychain survive such a rotation with the same value (they are
    /// rewrapped, not replaced). Something that derives long-lived keys from them, such as the
    /// per-class file keys of protected files, compares this epoch with the one it recorded
    /// and makes new keys when it differs, so that an old copy of the keychain together with
    /// the passphrase it had opens nothing written after the change.
    ///
    /// It is readable in every lock state and reveals nothing about any key: it is a SHA-256
    /// digest of the wrapped class keys as stored.
    ///
    /// ```swift
    /// let before = try keychain.classKeyEpoch
    /// try keychain.changePassphrase(from: "old", to: "new")
    /// assert(try keychain.classKeyEpoch != before)
    /// ```
    public var classKeyEpoch: Data {
        get throws(KeychainError) {
            // A read reloads a keybag another process rotated.
            try read { _ in }
            return keys.userClassSlotDigest
        }
    }
}

extension KeyRing {
    /// SHA-256 over the wrapped user-tier class-key slots, in slot-name order.
    var userClassSlotDigest: Data {
        var hash = SHA256()
        for (slot, wrapped) in userClassSlotsSnapshot.sorted(by: { $0.key.name < $1.key.name }) {
            var writer = ByteWriter()
            writer.appendLengthPrefixed(slot.name)
            writer.appendLengthPrefixed(wrapped)
            hash.update(data: writer.data)
        }
        return Data(hash.finalize())
    }
}
