import Foundation

/// Big-endian binary encoding for the sync layer's own formats.
struct ByteBuffer {
    /// The bytes written so far.
    private(set) var data = Data()

    /// Appends raw bytes.
    mutating func append(_ bytes: Data) { data.append(bytes) }

    /// Appends an integer, big-endian.
    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }

    /// Appends bytes after their 32-bit length.
    mutating func appendPrefixed(_ bytes: Data) {
        append(UInt32(bytes.count))
        data.append(bytes)
    }
}

/// Reads what ``ByteBuffer`` wrote; every read returns `nil` past the end.
struct ByteReader {
    private let storage: Data
    private var offset: Int

    /// A reader at the start of `data`.
    init(_ data: Data) {
        storage = Data(data)
        offset = 0
    }

    /// Whether every byte was read.
    var isAtEnd: Bool { offset == storage.count }

    /// The next `count` bytes.
    mutating func bytes(_ count: Int) -> Data? {
        guard count >= 0, storage.count - offset >= count else { return nil }
        defer { offset += count }
        return storage[offset..<offset + count]
    }

    /// The next byte.
    mutating func byte() -> UInt8? { bytes(1)?.first }

    /// The next big-endian integer.
    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        bytes(MemoryLayout<T>.size).map { $0.reduce(T(0)) { $0 << 8 | T($1) } }
    }

    /// The next length-prefixed bytes.
    mutating func prefixed() -> Data? {
        guard let count = integer(UInt32.self) else { return nil }
        return bytes(Int(count))
    }
}
