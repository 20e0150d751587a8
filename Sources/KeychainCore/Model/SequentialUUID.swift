import Foundation

extension UUID {
    /// An item identifier that sorts after the identifiers of earlier items: the 48-bit sequence
    /// number `sequence` (the row id the item is about to get) big-endian, then random bits, with
    /// the RFC 9562 version 8 (custom) and variant bits. A new identifier's index entry is then
    /// appended rather than inserted at a random place in the B-tree, saving a page write on every
    /// add. It reveals nothing the clear row id does not already show (no time, unlike UUIDv7).
    /// `random` supplies bytes 6–15 (10 bytes; the version and variant bits are then set over 6
    /// of its bits, leaving 74 random).
    static func sequential(_ sequence: Int64, random: [UInt8]) -> UUID {
        precondition(random.count == 10, "a sequential identifier takes 10 random bytes")
        var bytes = [UInt8](repeating: 0, count: 6) + random
        let value = UInt64(clamping: sequence) & 0xFFFF_FFFF_FFFF
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: value >> (40 - 8 * UInt64(index))) }
        bytes[6] = 0x80 | (bytes[6] & 0x0F)  // version 8
        bytes[8] = 0x80 | (bytes[8] & 0x3F)  // RFC 9562 variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
