import Foundation

/// Where unambiguous binary encodings are written — every format of the package that is not a
/// database row: backups, the device key file, unlock tickets, sync records and state — in one
/// way: fixed-width integers big-endian, variable fields after a 32-bit big-endian length.
/// ``ByteWriter`` writes into `Data` (and can wipe it); a `[UInt8]` is the faster choice for
/// encodings made on every read and write (`Data`'s appends cost several times an array's).
/// ``ByteReader`` reads them back.
package protocol ByteSink {
    /// Appends one byte.
    mutating func append(_ byte: UInt8)
    /// Appends the bytes as they are.
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer)
}

extension ByteSink {
    /// Appends the bytes as they are, with no length before them.
    package mutating func append(_ bytes: Data) { bytes.withUnsafeBytes { append(contentsOf: $0) } }

    /// Appends an integer in its full width, most significant byte first.
    package mutating func append<T: FixedWidthInteger>(bigEndian value: T) {
        withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    /// Appends a 32-bit big-endian length followed by the bytes.
    package mutating func appendLengthPrefixed(_ bytes: Data) {
        append(bigEndian: UInt32(bytes.count))
        append(bytes)
    }

    /// Appends a 32-bit big-endian length followed by the text's UTF-8 bytes.
    package mutating func appendLengthPrefixed(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            append(bigEndian: UInt32(utf8.count))
            append(contentsOf: UnsafeRawBufferPointer(utf8))
        }
    }
}

extension Array: ByteSink where Element == UInt8 {}

/// Builds unambiguous binary encodings in `Data` (see ``ByteSink``).
package struct ByteWriter: ByteSink {
    /// The bytes written so far.
    package private(set) var data: Data

    /// An empty writer; `capacity` reserves room up front, so a buffer that will hold secrets is
    /// not reallocated (leaving unwiped copies behind) while it grows.
    package init(capacity: Int = 0) { data = Data(capacity: capacity) }

    /// Zeroes what was written (for buffers that held secrets).
    package mutating func wipe() { SecretWiping.wipe(&data) }

    /// Appends one byte.
    package mutating func append(_ byte: UInt8) { data.append(byte) }

    /// Appends the bytes as they are.
    package mutating func append(contentsOf bytes: UnsafeRawBufferPointer) { data.append(contentsOf: bytes) }
}
