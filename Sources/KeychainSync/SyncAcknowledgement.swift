import Crypto
import Foundation
import SecureStorageFoundation

/// A member's word that it has merged every record written up to a manifest counter, MAC'd under
/// the circle key so the server cannot raise it: a deletion every member acknowledged can be
/// compacted away without any device missing it.
///
/// Body: `generation (4) ‖ counter (8) ‖ HMAC-SHA256 (32)` over a label, the circle, the device,
/// the generation and the counter. Each device writes its own after every sync that changed
/// something; an acknowledgement under an older generation counts for nothing (each generation
/// counts its manifests afresh).
struct SyncAcknowledgement: Sendable, Hashable {
    /// The member.
    var deviceID: UUID
    /// The manifest counter up to which it merged every record.
    var counter: Int64

    private static let label = Data("keychain-sync acknowledgement 1".utf8)

    /// The body to store, under `key`.
    func sealed(key: CircleKey) -> Data {
        var body = ByteWriter()
        body.append(bigEndian: key.generation)
        body.append(bigEndian: UInt64(bitPattern: counter))
        body.append(
            Data(
                HMAC<SHA256>.authenticationCode(
                    for: Self.macInput(deviceID, key.generation, counter, key), using: key.manifestKey)))
        return body.data
    }

    /// The acknowledgement `body` stored for `deviceID`, or `nil` when it is not one made under
    /// `key` (another generation, or not authentic).
    static func open(_ body: Data, deviceID: UUID, key: CircleKey) -> SyncAcknowledgement? {
        var input = ByteReader(body)
        guard let generation = input.readBigEndian(UInt32.self), generation == key.generation,
            let counter = input.readBigEndian(UInt64.self),
            let mac = input.readBytes(32), input.isAtEnd,
            HMAC<SHA256>.isValidAuthenticationCode(
                mac, authenticating: macInput(deviceID, generation, Int64(bitPattern: counter), key),
                using: key.manifestKey)
        else { return nil }
        return SyncAcknowledgement(deviceID: deviceID, counter: Int64(bitPattern: counter))
    }

    private static func macInput(_ deviceID: UUID, _ generation: UInt32, _ counter: Int64, _ key: CircleKey) -> Data {
        var input = ByteWriter()
        input.append(label)
        input.append(key.circleID.bytes)
        input.append(deviceID.bytes)
        input.append(bigEndian: generation)
        input.append(bigEndian: UInt64(bitPattern: counter))
        return input.data
    }
}
