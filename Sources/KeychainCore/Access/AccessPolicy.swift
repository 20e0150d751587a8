import Foundation

/// The access-control constraints of an item (`kSecAttrAccessControl`'s flags): which
/// user authentication reading its data — or, with ``Flags/privateKeyUsage``, using its private
/// key — needs.
///
/// The policy is stored inside the item's encrypted, authenticated metadata (attribute `accc`),
/// so it cannot be removed or changed without the keychain noticing. Off Apple platforms the
/// item's data key is also sealed to the keychain's presence key, which only the secret of an
/// enrolled ``Authenticator`` unwraps: without the user's authentication the data stays closed,
/// even to someone who holds the device key, the passphrase and the keychain file (the article
/// "Access Control" of KeychainServices says what such a person can still do).
///
/// ```swift
/// let policy = try AccessPolicy(flags: [.biometryCurrentSet])
/// try keychain.add(NewItem(.genericPassword, attributes: [.service: "bank", .account: "me"],
///                          data: secret).protected(by: policy))
/// ```
public struct AccessPolicy: Sendable, Hashable, CustomStringConvertible {
    /// Apple's `SecAccessControlCreateFlags`, with the same bits.
    public struct Flags: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: UInt32
        /// Creates flags from raw bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Biometry or passcode (1 << 0); survives enrolment changes.
        public static let userPresence = Flags(rawValue: 1 << 0)
        /// Any enrolled biometry (1 << 1); survives enrolment changes.
        public static let biometryAny = Flags(rawValue: 1 << 1)
        /// Only the biometry enrolled when the item was written (1 << 3).
        public static let biometryCurrentSet = Flags(rawValue: 1 << 3)
        /// The device passcode (1 << 4).
        public static let devicePasscode = Flags(rawValue: 1 << 4)
        /// A paired companion device (1 << 5); not available off Apple platforms.
        public static let companion = Flags(rawValue: 1 << 5)
        /// One of the constraints suffices (1 << 14).
        public static let or = Flags(rawValue: 1 << 14)
        /// Every constraint is needed (1 << 15; also the default for several constraints).
        public static let and = Flags(rawValue: 1 << 15)
        /// The constraints guard private-key operations instead of reading the data (1 << 30).
        public static let privateKeyUsage = Flags(rawValue: 1 << 30)
        /// An application password mixed into the item key (1 << 31); not available off Apple platforms.
        public static let applicationPassword = Flags(rawValue: 1 << 31)

        /// The flags that each demand an authentication.
        public static let constraints: Flags = [
            .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion, .applicationPassword
        ]
    }

    /// The flags.
    public let flags: Flags
    /// For ``Flags/biometryCurrentSet``: the authenticator's ``Authenticator/enrollmentState``
    /// when the item was written. Filled in by the keychain.
    public internal(set) var enrollmentState: Data?

    /// Creates a policy, validating the flags as `SecAccessControlCreateWithFlags` does.
    /// - Throws: `.invalidParameter` for `.or` with `.and`, `.biometryAny` with
    ///   `.biometryCurrentSet`, or `.userPresence` with anything but `.applicationPassword`
    ///   and `.privateKeyUsage`.
    public init(flags: Flags) throws(KeychainError) {
        if flags.contains(.or) && flags.contains(.and) {
            throw KeychainError.orAndCombined()
        }
        if flags.contains(.biometryAny) && flags.contains(.biometryCurrentSet) {
            throw KeychainError.biometryAnyAndCurrentSetCombined()
        }
        if flags.contains(.userPresence)
            && !flags.subtracting([.userPresence, .applicationPassword, .privateKeyUsage]).isEmpty
        {
            throw KeychainError.userPresenceCombination()
        }
        self.flags = flags
        self.enrollmentState = nil
    }

    /// Whether the policy asks for any authentication.
    public var requiresAuthentication: Bool { !flags.isDisjoint(with: Flags.constraints) }

    /// Whether reading the item's data needs authentication (the constraints do not apply to
    /// private-key use only).
    public var guardsData: Bool { requiresAuthentication && !flags.contains(.privateKeyUsage) }

    /// The authentications the policy asks for: each inner set lists the methods that satisfy
    /// one constraint. With ``Flags/or`` one set holds every method.
    var requiredAuthentications: [Set<AuthenticationMethod>] {
        var each: [Set<AuthenticationMethod>] = []
        if flags.contains(.userPresence) { each.append([.biometry, .passcode]) }
        if !flags.isDisjoint(with: [.biometryAny, .biometryCurrentSet]) { each.append([.biometry]) }
        if flags.contains(.devicePasscode) { each.append([.passcode]) }
        if flags.contains(.or), each.count > 1 { return [each.reduce(into: Set()) { $0.formUnion($1) }] }
        return each
    }

    /// `AccessPolicy(biometryCurrentSet|privateKeyUsage)`; never the enrolment state.
    public var description: String {
        let names: [(Flags, String)] = [
            (.userPresence, "userPresence"), (.biometryAny, "biometryAny"),
            (.biometryCurrentSet, "biometryCurrentSet"), (.devicePasscode, "devicePasscode"),
            (.companion, "companion"), (.or, "or"), (.and, "and"),
            (.privateKeyUsage, "privateKeyUsage"), (.applicationPassword, "applicationPassword")
        ]
        let parts = names.filter { flags.contains($0.0) }.map(\.1)
        return "AccessPolicy(\(parts.isEmpty ? "none" : parts.joined(separator: "|")))"
    }

    // MARK: - Stored form (attribute `accc`)

    /// The value stored under ``AttributeKey/accessControl`` (for ``ItemChanges``).
    public var attributeValue: AttributeValue { .data(encoded) }

    private static let encodingVersion: UInt8 = 1

    /// The bytes stored in the item's metadata: version, flags (big-endian), enrolment state.
    var encoded: Data {
        var bytes = Data([Self.encodingVersion])
        withUnsafeBytes(of: flags.rawValue.bigEndian) { bytes.append(contentsOf: $0) }
        if let enrollmentState { bytes.append(enrollmentState) }
        return bytes
    }

    /// Reads the stored form; `nil` when it is not one.
    init?(encoded bytes: Data) {
        let bytes = Array(bytes)
        guard bytes.count >= 5, bytes[0] == Self.encodingVersion else { return nil }
        let raw = bytes[1..<5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard let policy = try? AccessPolicy(flags: Flags(rawValue: raw)) else { return nil }
        self = policy
        if bytes.count > 5 { enrollmentState = Data(bytes[5...]) }
    }
}

extension AccessPolicy {
    /// The policy stored in complete item attributes, if any.
    static func of(_ attributes: [AttributeKey: AttributeValue]) -> AccessPolicy? {
        attributes[.accessControl]?.dataValue.flatMap(AccessPolicy.init(encoded:))
    }
}

extension NewItem {
    /// The item with an access-control policy: reading its data (or using its key) will need
    /// the authentications the policy names.
    public func protected(by policy: AccessPolicy) -> NewItem {
        var item = self
        item.attributes[.accessControl] = .data(policy.encoded)
        return item
    }
}

extension FoundItem {
    /// The item's access-control policy, when attributes were returned and it has one.
    public var accessPolicy: AccessPolicy? {
        attributes[.accessControl]?.dataValue.flatMap(AccessPolicy.init(encoded:))
    }
}
