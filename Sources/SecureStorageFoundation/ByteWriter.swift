import Foundation

/// Where unambiguous binary encodings are written: fixed-width integers big-endian, variable
/// fields after a 32-bit big-endian length. ``ByteWriter`` writes into `Data` (and can wipe it);
/// a `[UInt8]` is the faster choice for encodings made on every read and write (`Data`'s
/// appends cost several times an array's).
protocol ByteSink {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer)
}

extension ByteSink {
    mutating func append(_ bytes: Data) { bytes.withUnsafeBytes { append(contentsOf: $0) } }
    mutating func append<T: FixedWidthInteger>(bigEndian value: T) {
        withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
    /// Appends a 32-bit big-endian length followed by the bytes.
    mutating func appendLengthPrefixed(_ bytes: Data) {
        append(bigEndian: UInt32(bytes.count))
        append(bytes)
    }
    mutating func appendLengthPrefixed(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            append(bigEndian: UInt32(utf8.count))
            append(contentsOf: UnsafeRawBufferPointer(utf8))
        }
    }
}

extension Array: ByteSink where Element == UInt8 {}

/// Builds unambiguous binary encodings in `Data` (see ``ByteSink``).
struct ByteWriter: ByteSink {
    private(set) var data: Data

    /// An empty writer; `capacity` reserves room up front, so a buffer that will hold secrets is
    /// not reallocated (leaving unwiped copies behind) while it grows.
    init(capacity: Int = 0) { data = Data(capacity: capacity) }

    /// Zeroes what was written (for buffers that held secrets).
    mutating func wipe() { SecretWiping.wipe(&data) }

    mutating func append(_ byte: UInt8) { data.append(byte) }
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) { data.append(contentsOf: bytes) }
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

    /// A length-prefixed field holding UTF-8 text; nil when it is cut short or not valid UTF-8.
    mutating func readLengthPrefixedText() -> String? {
        guard let length = readBigEndian(UInt32.self), bytes.count - offset >= Int(length) else { return nil }
        defer { offset += Int(length) }
        return String(validating: bytes[offset..<offset + Int(length)], as: UTF8.self)
    }
}
