#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// Options of ``SecAccessControlCreateWithFlags(_:_:_:_:)`` with Apple's member names and values.
public struct SecAccessControlCreateFlags: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: CFOptionFlags
    /// Creates flags from raw bits.
    public init(rawValue: CFOptionFlags) { self.rawValue = rawValue }

    /// Biometry or passcode (1 << 0).
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    /// Any enrolled biometry (1 << 1).
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    /// Deprecated name of ``biometryAny``.
    public static let touchIDAny = biometryAny
    /// Only the biometry enrolled at creation (1 << 3).
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    /// Deprecated name of ``biometryCurrentSet``.
    public static let touchIDCurrentSet = biometryCurrentSet
    /// The device passcode (1 << 4).
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    /// A paired companion device (1 << 5).
    public static let companion = SecAccessControlCreateFlags(rawValue: 1 << 5)
    /// Deprecated name of ``companion``.
    public static let watch = companion
    /// At least one constraint must be satisfied (1 << 14).
    public static let or = SecAccessControlCreateFlags(rawValue: 1 << 14)
    /// All constraints must be satisfied (1 << 15).
    public static let and = SecAccessControlCreateFlags(rawValue: 1 << 15)
    /// Constraints apply to private-key operations (1 << 30).
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
    /// An application password is mixed into the item key (1 << 31).
    public static let applicationPassword = SecAccessControlCreateFlags(rawValue: 1 << 31)

    /// The flags that demand user authentication before data can be read.
    static let constraints: SecAccessControlCreateFlags = [
        .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion, .applicationPassword
    ]
}

/// An item's protection and access-control constraints (`kSecAttrAccessControl`).
///
/// Hashable, so wrappers can keep it in `[String: AnyHashable]`. Its description has Apple's
/// format: `<SecAccessControlRef: ak>` for a plain protection.
public final class SecAccessControl: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The accessibility the item gets.
    public let accessibility: Accessibility
    /// The flags it was created with.
    public let flags: SecAccessControlCreateFlags

    init(accessibility: Accessibility, flags: SecAccessControlCreateFlags) {
        self.accessibility = accessibility
        self.flags = flags
    }

    /// Whether reading the item's data would need user authentication.
    var requiresAuthentication: Bool { !flags.intersection(SecAccessControlCreateFlags.constraints).isEmpty }

    /// Equal when protection and flags are equal.
    public static func == (lhs: SecAccessControl, rhs: SecAccessControl) -> Bool {
        lhs.accessibility == rhs.accessibility && lhs.flags == rhs.flags
    }

    /// Hashes protection and flags.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(accessibility)
        hasher.combine(flags.rawValue)
    }

    /// `<SecAccessControlRef: ak>`, or with constraints
    /// `<SecAccessControlRef: ak;od(cpol(DeviceOwnerAuthentication));odel(true);oe(true)>`.
    public var description: String {
        guard requiresAuthentication else { return "<SecAccessControlRef: \(accessibility.rawValue)>" }
        let policy = flags.contains(.userPresence) ? "cpol(DeviceOwnerAuthentication)" : "cbio(\(flags.rawValue))"
        let operation = flags.contains(.privateKeyUsage) ? "osgn" : "od"
        return "<SecAccessControlRef: \(accessibility.rawValue);\(operation)(\(policy));odel(true);oe(true)>"
    }
}

extension SecAccessControl {
    /// The engine's policy for these flags, or `nil` when they ask for no authentication.
    var accessPolicy: AccessPolicy? {
        guard requiresAuthentication || flags.contains(.privateKeyUsage) else { return nil }
        return try? AccessPolicy(flags: AccessPolicy.Flags(rawValue: UInt32(truncatingIfNeeded: flags.rawValue)))
    }

    /// The access control of a stored item: its accessibility and its policy's flags.
    convenience init(accessibility: Accessibility, policy: AccessPolicy?) {
        self.init(
            accessibility: accessibility,
            flags: SecAccessControlCreateFlags(rawValue: CFOptionFlags(policy?.flags.rawValue ?? 0)))
    }
}

/// Creates an access-control object, validating as Apple does: `protection` must be a
/// `kSecAttrAccessible…` constant; `.or` with `.and`, `.biometryAny` with `.biometryCurrentSet`,
/// and `.userPresence` with anything but `.applicationPassword`/`.privateKeyUsage` are `errSecParam`.
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    func fail(_ reason: String) -> SecAccessControl? {
        error?.pointee = Unmanaged.passRetained(SecItemCall.cfError(errSecParam, reason))
        return nil
    }
    guard let raw = SecValue.string(protection), let accessibility = Accessibility(rawValue: raw) else {
        return fail("protection must be one of the kSecAttrAccessible… constants")
    }
    if flags.contains(.or) && flags.contains(.and) {
        return fail("kSecAccessControlOr and kSecAccessControlAnd cannot be combined")
    }
    if flags.contains(.biometryAny) && flags.contains(.biometryCurrentSet) {
        return fail("biometryAny and biometryCurrentSet cannot be combined")
    }
    if flags.contains(.userPresence)
        && !flags.subtracting([.userPresence, .applicationPassword, .privateKeyUsage]).isEmpty
    {
        return fail("userPresence can only be combined with applicationPassword or privateKeyUsage")
    }
    return SecAccessControl(accessibility: accessibility, flags: flags)
}
#endif
