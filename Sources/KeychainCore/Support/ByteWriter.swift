import Foundation

/// Builds unambiguous binary encodings: fixed-width integers and length-prefixed fields.
struct ByteWriter {
    private(set) var data: Data

    /// An empty writer; `capacity` reserves room up front, so a buffer that will hold secrets is
    /// not reallocated (leaving unwiped copies behind) while it grows.
    init(capacity: Int = 0) { data = Data(capacity: capacity) }

    /// Zeroes what was written (for buffers that held secrets).
    mutating func wipe() { SecretWiping.wipe(&data) }

    mutating func append(_ bytes: Data) { data.append(bytes) }
    mutating func append(_ byte: UInt8) { data.append(byte) }
    mutating func append<T: FixedWidthInteger>(bigEndian value: T) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }
    /// Appends a 32-bit big-endian length followed by the bytes.
    mutating func appendLengthPrefixed(_ bytes: Data) {
        append(bigEndian: UInt32(bytes.count))
        data.append(bytes)
    }
    mutating func appendLengthPrefixed(_ text: String) {
        append(bigEndian: UInt32(text.utf8.count))
        data.append(contentsOf: text.utf8)
    }
}

/// Reads what ``ByteWriter`` wrote; every read fails cleanly at the end of the input.
struct ByteReader {
    private var bytes: [UInt8]
    private var offset = 0

    init(_ data: Data) { bytes = [UInt8](data) }

    /// Zeroes the reader's copy of its input (for inputs that held secrets).
    mutating func wipe() { SecretWiping.wipe(&bytes) }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func readByte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readBigEndian<T: FixedWidthInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard bytes.count - offset >= size else { return nil }
        var value: T = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | T(byte) }
        offset += size
        return value
    }

    mutating func readBytes(_ count: Int) -> Data? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return Data(bytes[offset..<offset + count])
    }

    /// The bytes not read yet.
    mutating func readRemaining() -> Data { readBytes(bytes.count - offset) ?? Data() }

    mutating func readLengthPrefixed() -> Data? {
        guard let length = readBigEndian(UInt32.self), bytes.count - offset >= Int(length) else { return nil }
        defer { offset += Int(length) }
        return Data(bytes[offset..<offset + Int(length)])
    }
}
