/// The data-protection class that decides when an item's keys are available.
public enum ProtectionClass: String, Sendable, Hashable, CaseIterable {
    /// Class A: readable only while the keychain is unlocked.
    case whenUnlocked
    /// Class C: readable from the first unlock until the keychain is closed, also while locked.
    case afterFirstUnlock
    /// Class D: always readable (deprecated by Apple for new items, still supported).
    case always
    /// Class A plus a passphrase: like ``whenUnlocked``, and the items exist only while a
    /// passphrase is set. Removing the passphrase destroys them.
    case whenPasscodeSet
}
