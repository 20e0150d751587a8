import Foundation

extension UUID {
    /// A version 7 UUID (RFC 9562): 48 bits of Unix time in milliseconds, then 74 random bits.
    /// Item identifiers are made this way so that each new one sorts after the previous ones and
    /// its index entry is appended rather than inserted at a random place in the B-tree, which
    /// saves a page write on every add. The order of items was never secret: row ids show it.
    static func timeOrdered(now: Date = Date()) -> UUID {
        let milliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * UInt64(index))) }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)   // version 7
        bytes[8] = 0x80 | (bytes[8] & 0x3F)   // RFC 9562 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
