import Crypto
import Foundation

/// The codes people read from one device and type on another.
///
/// - The **circle code** (shown by `keychain sync create` and `status` on every member) names
///   the circle and its membership history as the member showing it verified it: the number of
///   roster events and 96 bits of the last one's hash. A joining device takes only a roster that
///   holds that event at that place, so neither someone who learnt its approval code nor a device
///   removed before the code was shown can lead it into a circle of their own making; a history
///   only grows, so an old circle code keeps working.
/// - The **approval code** (shown by `keychain sync join`) is 100 random bits the joining device
///   made and the server never sees: a member's user types it, and it binds the request (the
///   device's keys and name) and the answer to each other (``JoinRequest``).
///
/// Both are written in RFC 4648 base32 without padding, in groups of four, and read back
/// ignoring case, spaces and dashes.
enum CircleCode {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    /// The circle code of `key`.
    static func circleCode(of roster: Roster) -> String {
        var bytes = ByteBuffer()
        bytes.append(roster.circleID.bytes)
        bytes.append(UInt32(clamping: roster.events.count))
        bytes.append(roster.head.prefix(12))
        return group(base32(bytes.data))
    }

    /// The circle id and verifier in a circle code.
    static func parseCircleCode(_ code: String) throws(SyncError) -> (circleID: UUID, pin: Data) {
        guard let bytes = decodeBase32(code), bytes.count == 32, let circleID = UUID(bytes: bytes.prefix(16)) else {
            throw SyncError(.invalidCode, "That is not a circle code: copy it from `keychain sync status` on a device of the circle (52 letters and digits, dashes optional).")
        }
        return (circleID, Data(bytes.suffix(16)))
    }

    /// A new approval code: 100 random bits, which the joining device shows and a member's user types.
    static func newApprovalCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return group(String((0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt8(32)))] }))
    }

    /// Whether `code` has the form of an approval code (20 letters and digits, separators aside).
    static func isApprovalCode(_ code: String) -> Bool {
        normalized(code).count == 20
    }

    /// A code in canonical form (upper case, no separators), for comparison.
    static func normalized(_ code: String) -> String {
        code.uppercased().filter { alphabet.contains($0) }
    }

    private static func group(_ text: String) -> String {
        stride(from: 0, to: text.count, by: 4).map { start in
            String(text.dropFirst(start).prefix(4))
        }.joined(separator: "-")
    }

    private static func base32(_ data: Data) -> String {
        var output = "", buffer = 0, bits = 0
        for byte in data {
            buffer = buffer << 8 | Int(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return output
    }

    private static func decodeBase32(_ text: String) -> Data? {
        let characters = Array(text.uppercased().filter { $0 != "-" && $0 != " " })
        var output = Data(), buffer = 0, bits = 0
        for character in characters {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5 | value) & 0xFFFF
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return output
    }
}
