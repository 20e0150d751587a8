import Foundation

/// The presence slots of a verified keybag: the presence public key, and for each method the
/// enrolments (identifier → wrapped private key). No public key means nothing was ever enrolled:
/// a keychain upgraded from format 4 whose protected items still rely on the check alone until
/// the first enrolment moves them under the key.
struct PresenceRecords: Sendable, Equatable {
    var publicKey: PresencePublicKey?
    var enrollments: [AuthenticationMethod: [Data: Data]] = [:]

    /// No presence key and no enrolment.
    static let none = PresenceRecords()

    private init() {}

    init(keybag: [KeybagSlot: Data]) throws(KeychainError) {
        for (slot, value) in keybag {
            switch slot {
            case .presencePublicKey: publicKey = try PresencePublicKey(rawRepresentation: value)
            case .presenceEnrollment(let method, let identifier): enrollments[method, default: [:]][identifier] = value
            case .index, .classKey: continue
            }
        }
        if publicKey == nil && !enrollments.isEmpty { throw KeychainError.tamperedEnrolmentsWithoutPresenceKey() }
    }

    /// Whether an authenticator was ever enrolled (protected items are then sealed to the presence key).
    var isEstablished: Bool { publicKey != nil }

    /// The methods with at least one enrolment.
    var enrolledMethods: Set<AuthenticationMethod> { Set(enrollments.filter { !$0.value.isEmpty }.keys) }

    /// The wrapped key of one enrolment.
    func enrollment(_ method: AuthenticationMethod, identifier: Data) -> Data? { enrollments[method]?[identifier] }
}
