import Crypto
import Foundation
import SecureStorageFoundation

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
/// ignoring case, spaces and dashes. Each ends in a check group (``CodeCheck``): a circle code is
/// 52 characters and its check group (56), an approval code 20 and its check group (24). A code
/// with a typo is refused before anything is sent to the server. Circle codes printed by earlier
/// versions (52 characters, no check group) are refused with a message saying to show a current
/// one (`keychain sync status`): unchecked, a typo in one admits a device that then refuses the
/// circle. Approval codes of earlier versions (20 characters) are still taken, so that a join
/// asked for before an upgrade can finish: a mistyped approval code opens no request, so it
/// never admits anything.
enum CircleCode {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    /// Characters in a circle code, check group included.
    static let circleCodeLength = 56
    /// Characters in an approval code, check group included.
    static let approvalCodeLength = 24
    /// Characters in a circle code of an earlier version (no check group).
    private static let legacyCircleCodeLength = 52
    /// Characters in an approval code of an earlier version (no check group).
    private static let legacyApprovalCodeLength = 20

    /// The circle code of `roster`.
    static func circleCode(of roster: Roster) -> String {
        var bytes = ByteWriter()
        bytes.append(roster.circleID.bytes)
        bytes.append(bigEndian: UInt32(clamping: roster.events.count))
        bytes.append(roster.head.prefix(12))
        return text(CodeCheck.appending(to: base32(bytes.data), kind: .circle))
    }

    /// The circle id and verifier in a circle code.
    /// - Throws: ``SyncError/Code/invalidCode`` for a typo (the check group does not match),
    ///   characters no code has, the wrong length, or a code of an earlier version.
    static func parseCircleCode(_ code: String) throws(SyncError) -> (circleID: UUID, pin: Data) {
        guard let values = values(code) else {
            throw SyncError.circleCodeCharacters(alphabet: Self.characters)
        }
        switch values.count {
        case circleCodeLength:
            guard CodeCheck.isIntact(values, kind: .circle) else {
                throw SyncError.circleCodeTypo
            }
        case legacyCircleCodeLength:
            throw SyncError.circleCodeWithoutCheck(length: circleCodeLength)
        default:
            throw SyncError.circleCodeLength(values.count, expected: circleCodeLength)
        }
        let bytes = decodeBase32(values.prefix(legacyCircleCodeLength))
        guard bytes.count == 32, let circleID = UUID(bytes: bytes.prefix(16)) else {
            throw SyncError.circleCodeUndecodable
        }
        return (circleID, Data(bytes.suffix(16)))
    }

    /// A new approval code: 100 random bits and their check group, which the joining device shows
    /// and a member's user types.
    static func newApprovalCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<legacyApprovalCodeLength).map { _ in generator.next(upperBound: UInt8(32)) }
        return text(CodeCheck.appending(to: random, kind: .approval))
    }

    /// Checks that `code` is an approval code as typed: the right characters and length, and a
    /// check group that matches (or 20 characters: a code of an earlier version, unchecked).
    /// Never repeats the code: it is the join's secret.
    /// - Throws: ``SyncError/Code/invalidCode`` saying what is wrong.
    static func checkApprovalCode(_ code: String) throws(SyncError) {
        guard let values = values(code) else {
            throw SyncError.approvalCodeCharacters(alphabet: Self.characters)
        }
        switch values.count {
        case approvalCodeLength:
            guard CodeCheck.isIntact(values, kind: .approval) else {
                throw SyncError.approvalCodeTypo
            }
        case legacyApprovalCodeLength:
            return
        default:
            throw SyncError.approvalCodeLength(values.count, expected: approvalCodeLength)
        }
    }

    /// Which characters a code holds, for messages.
    private static let characters =
        "codes use the letters A to Z and the digits 2 to 7: a 0 is the letter O, a 1 the letter I or L, an 8 the letter B"

    /// A code's characters as values 0–31, ignoring case, spaces and dashes; `nil` when it holds
    /// another character.
    private static func values(_ code: String) -> [UInt8]? {
        var values: [UInt8] = []
        for character in code.uppercased() where character != "-" && !character.isWhitespace {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            values.append(UInt8(value))
        }
        return values
    }

    /// A code in canonical form (upper case, no separators), for comparison.
    static func normalized(_ code: String) -> String {
        code.uppercased().filter { alphabet.contains($0) }
    }

    /// Values 0–31 as base32 characters in groups of four.
    private static func text(_ values: [UInt8]) -> String {
        let characters = values.map { alphabet[Int($0)] }
        return stride(from: 0, to: characters.count, by: 4).map { start in
            String(characters[start..<min(start + 4, characters.count)])
        }.joined(separator: "-")
    }

    /// Bytes as base32 values 0–31 (the last one padded with zero bits).
    private static func base32(_ data: Data) -> [UInt8] {
        var output: [UInt8] = []
        var buffer = 0
        var bits = 0
        for byte in data {
            buffer = buffer << 8 | Int(byte)
            bits += 8
            while bits >= 5 {
                output.append(UInt8((buffer >> (bits - 5)) & 31))
                bits -= 5
            }
        }
        if bits > 0 { output.append(UInt8((buffer << (5 - bits)) & 31)) }
        return output
    }

    /// Base32 values 0–31 as bytes (padding bits dropped).
    private static func decodeBase32(_ values: some Sequence<UInt8>) -> Data {
        var output = Data()
        var buffer = 0
        var bits = 0
        for value in values {
            buffer = (buffer << 5 | Int(value)) & 0xFFFF
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return output
    }
}
