import Crypto
import Foundation

/// A member's word that it has merged every record up to a sequence number, MAC'd under the
/// circle key so the server cannot raise it: a deletion every member acknowledged can be
/// compacted away without any device missing it.
///
/// Body: `generation (4) ‖ sequence (8) ‖ HMAC-SHA256 (32)` over a label, the circle, the device,
/// the generation and the sequence. Each device writes its own after every sync that changed
/// something; an acknowledgement under an older generation counts for nothing (a key rotation
/// gives every record a new sequence number).
struct SyncAcknowledgement: Sendable, Hashable {
    /// The member.
    var deviceID: UUID
    /// The highest sequence number up to which it merged every record.
    var sequence: Int64

    private static let label = Data("keychain-sync acknowledgement 1".utf8)

    /// The body to store, under `key`.
    func sealed(key: CircleKey) -> Data {
        var body = ByteBuffer()
        body.append(key.generation)
        body.append(UInt64(bitPattern: sequence))
        body.append(Data(HMAC<SHA256>.authenticationCode(for: Self.macInput(deviceID, key.generation, sequence, key), using: key.manifestKey)))
        return body.data
    }

    /// The acknowledgement `body` stored for `deviceID`, or `nil` when it is not one made under
    /// `key` (another generation, or not authentic).
    static func open(_ body: Data, deviceID: UUID, key: CircleKey) -> SyncAcknowledgement? {
        var input = ByteReader(body)
        guard let generation = input.integer(UInt32.self), generation == key.generation, let sequence = input.integer(UInt64.self),
              let mac = input.bytes(32), input.isAtEnd,
              HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: macInput(deviceID, generation, Int64(bitPattern: sequence), key),
                                                     using: key.manifestKey) else { return nil }
        return SyncAcknowledgement(deviceID: deviceID, sequence: Int64(bitPattern: sequence))
    }

    private static func macInput(_ deviceID: UUID, _ generation: UInt32, _ sequence: Int64, _ key: CircleKey) -> Data {
        var input = ByteBuffer()
        input.append(label)
        input.append(key.circleID.bytes)
        input.append(deviceID.bytes)
        input.append(generation)
        input.append(UInt64(bitPattern: sequence))
        return input.data
    }
}
