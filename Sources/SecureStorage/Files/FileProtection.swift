/// When a protected file can be read and written: Apple's four Data Protection classes, with
/// Apple's names and meaning.
///
/// | Class | Unlocked | Locked (after the first unlock) | Before the first unlock |
/// |---|---|---|---|
/// | ``complete`` | read, write, create | nothing; an open file stops working | nothing |
/// | ``completeUnlessOpen`` | read, write, create | create new files (once the store has its keys, made at a write while unlocked); files opened before the lock keep working until closed | nothing |
/// | ``completeUntilFirstUserAuthentication`` | read, write, create | read, write, create | nothing |
/// | ``none`` | read, write, create | read, write, create | read, write, create |
///
/// Renaming, listing and removing files work in every state (they need only the store's name
/// key, kept `Always`).
///
/// On Apple platforms these are `FileProtectionType`s and the system enforces them. On Linux,
/// SecureStorage enforces them with the keychain's lock state: each file has its own key,
/// wrapped by a key of its class that the keychain only hands out when the class allows it.
/// A keychain without a passphrase is a device without a passcode: always unlocked.
public enum FileProtection: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Readable and writable only while unlocked (`FileProtectionType.complete`). For documents
    /// nothing needs in the background.
    case complete
    /// Files open when the device locks stay usable until closed, and new files can be
    /// created while locked (`FileProtectionType.completeUnlessOpen`). For downloads and
    /// recordings that run on in the background; switch a finished file to ``complete`` once
    /// unlocked with ``ProtectedFiles/setProtection(_:of:)``.
    case completeUnlessOpen
    /// Available from the first unlock until shutdown
    /// (`FileProtectionType.completeUntilFirstUserAuthentication`): Apple's default for app
    /// files, and right for anything a background task reads.
    case completeUntilFirstUserAuthentication
    /// Always available (`FileProtectionType.none`). Still encrypted, with a key that only this
    /// keychain's device key opens (on Linux: its device key file or TPM); for caches needed
    /// before the first unlock.
    case none

    /// The class's name, for example `"complete"`.
    public var description: String { rawValue }

    /// The one-byte code of the class in a protected file's header.
    var code: UInt8 {
        switch self {
        case .complete: 1
        case .completeUnlessOpen: 2
        case .completeUntilFirstUserAuthentication: 3
        case .none: 4
        }
    }

    /// The class a header code names; `nil` for any other byte.
    init?(code: UInt8) {
        guard let protection = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = protection
    }
}
