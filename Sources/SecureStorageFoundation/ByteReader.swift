import Foundation

/// Reads what ``ByteWriter`` wrote (big-endian integers, 32-bit big-endian length prefixes);
/// every read returns `nil` at the end of the input instead of reading past it, and every field
/// it returns is a `Data` of its own, indexed from zero.
package struct ByteReader {
    private var bytes: [UInt8]
    private var offset = 0

    /// A reader at the start of a copy of `data`.
    package init(_ data: Data) { bytes = [UInt8](data) }

    /// Zeroes the reader's copy of its input (for inputs that held secrets).
    package mutating func wipe() { SecretWiping.wipe(&bytes) }

    /// Whether every byte was read.
    package var isAtEnd: Bool { offset == bytes.count }

    /// How many bytes are left to read (to bound a count read from the input before using it).
    package var remainingCount: Int { bytes.count - offset }

    /// The next byte.
    package mutating func readByte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next integer of `T`'s width, most significant byte first.
    package mutating func readBigEndian<T: FixedWidthInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard bytes.count - offset >= size else { return nil }
        var value: T = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | T(byte) }
        offset += size
        return value
    }

    /// The next `count` bytes.
    package mutating func readBytes(_ count: Int) -> Data? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return Data(bytes[offset..<offset + count])
    }

    /// The bytes not read yet.
    package mutating func readRemaining() -> Data { readBytes(bytes.count - offset) ?? Data() }

    /// The next field written by `appendLengthPrefixed(_:)`: a 32-bit big-endian length, then that many bytes.
    package mutating func readLengthPrefixed() -> Data? {
        guard let length = readBigEndian(UInt32.self), bytes.count - offset >= Int(length) else { return nil }
        defer { offset += Int(length) }
        return Data(bytes[offset..<offset + Int(length)])
    }

    /// A length-prefixed field holding UTF-8 text; nil when it is cut short or not valid UTF-8.
    package mutating func readLengthPrefixedText() -> String? {
        guard let length = readBigEndian(UInt32.self), bytes.count - offset >= Int(length) else { return nil }
        defer { offset += Int(length) }
        return validatedUTF8(bytes[offset..<offset + Int(length)])
    }
}

/// `bytes` as text when they are valid UTF-8, else nil. Validated with the standard library's
/// decoder (`String(validating:as:)` needs macOS 15, and this target builds for the facade on
/// macOS 13).
package func validatedUTF8<Bytes: Collection>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8 {
    var decoder = UTF8()
    var input = bytes.makeIterator()
    while true {
        switch decoder.decode(&input) {
        case .scalarValue: continue
        case .emptyInput: return String(decoding: bytes, as: UTF8.self)
        case .error: return nil
        }
    }
}
