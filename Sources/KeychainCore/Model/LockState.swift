/// Whether the keychain's protection classes are available.
///
/// | State | whenUnlocked / whenPasscodeSet | afterFirstUnlock | always |
/// |---|---|---|---|
/// | ``beforeFirstUnlock`` | unavailable | unavailable | available |
/// | ``unlocked`` | available | available | available |
/// | ``locked`` | unavailable | available | available |
///
/// A keychain without a passphrase is a device without a passcode: it opens unlocked and
/// cannot be locked.
public enum LockState: String, Sendable, Hashable, CustomStringConvertible {
    /// Opened with a passphrase configured and not unlocked since.
    case beforeFirstUnlock
    /// Every protection class is available.
    case unlocked
    /// Locked after an unlock: class A and passcode-set items are unavailable, class C stays readable.
    case locked

    /// The state's name.
    public var description: String { rawValue }

    /// Whether keys of the protection class are available in this state.
    public func allows(_ protection: ProtectionClass) -> Bool {
        switch (self, protection) {
        case (_, .always), (.unlocked, _), (.locked, .afterFirstUnlock): true
        default: false
        }
    }
}
