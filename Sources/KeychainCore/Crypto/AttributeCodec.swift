import Foundation
import SecureStorageFoundation

/// The binary encoding of an item's attributes inside its encrypted metadata: a version byte,
/// then each attribute (sorted by name) as name ‖ type ‖ value, all length-prefixed.
enum AttributeCodec {
    private static let version: UInt8 = 1

    static func encode(_ attributes: [AttributeKey: AttributeValue]) -> Data {
        var writer: [UInt8] = []
        writer.reserveCapacity(512)
        writer.append(version)
        writer.append(bigEndian: UInt32(attributes.count))
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
            writer.appendLengthPrefixed(key.rawValue)
            switch value {
            case .string(let text):
                writer.append(UInt8(ascii: "s"))
                writer.appendLengthPrefixed(text)
            case .data(let bytes):
                writer.append(UInt8(ascii: "d"))
                writer.appendLengthPrefixed(bytes)
            case .number(let number):
                writer.append(UInt8(ascii: "n"))
                writer.append(bigEndian: number)
            case .date(let date):
                writer.append(UInt8(ascii: "t"))
                writer.append(bigEndian: date.timeIntervalSinceReferenceDate.bitPattern)
            case .bool(let flag):
                writer.append(UInt8(ascii: "b"))
                writer.append(flag ? 1 : 0)
            }
        }
        return Data(writer)
    }

    /// Decodes attributes; `nil` when the bytes are not a valid encoding.
    ///
    /// Read in place from the decrypted bytes (no copy of them is made), every field bounded by
    /// what is left; it runs once for every item a find or a listing returns.
    static func decode(_ data: Data) -> [AttributeKey: AttributeValue]? {
        data.withUnsafeBytes { buffer in
            var reader = AttributeFieldReader(buffer)
            return decode(&reader)
        }
    }

    private static func decode(_ reader: inout AttributeFieldReader) -> [AttributeKey: AttributeValue]? {
        guard reader.byte() == version, let count = reader.integer(UInt32.self) else { return nil }
        var attributes: [AttributeKey: AttributeValue] = [:]
        attributes.reserveCapacity(Int(min(count, 64)))  // a count from the file is not trusted for more
        for _ in 0..<count {
            guard let name = reader.text(), let type = reader.byte() else { return nil }
            let value: AttributeValue
            switch type {
            case UInt8(ascii: "s"):
                guard let text = reader.text() else { return nil }
                value = .string(text)
            case UInt8(ascii: "d"):
                guard let bytes = reader.field() else { return nil }
                value = .data(Data(bytes))
            case UInt8(ascii: "n"):
                guard let number = reader.integer(Int64.self) else { return nil }
                value = .number(number)
            case UInt8(ascii: "t"):
                guard let bits = reader.integer(UInt64.self) else { return nil }
                value = .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
            case UInt8(ascii: "b"):
                guard let flag = reader.byte() else { return nil }
                value = .bool(flag != 0)
            default:
                return nil
            }
            attributes[AttributeKey(rawValue: name)] = value
        }
        return reader.isAtEnd ? attributes : nil
    }
}

/// Reads the fields of an attribute encoding in place: bytes, big-endian integers, and fields
/// written length-prefixed (a 32-bit big-endian length, then that many bytes), each `nil` when
/// the input is cut short.
private struct AttributeFieldReader {
    private let buffer: UnsafeRawBufferPointer
    private var offset = 0

    init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    var isAtEnd: Bool { offset == buffer.count }

    mutating func byte() -> UInt8? {
        guard offset < buffer.count else { return nil }
        defer { offset += 1 }
        return buffer[offset]
    }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard buffer.count - offset >= size else { return nil }
        defer { offset += size }
        return T(bigEndian: buffer.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    mutating func field() -> UnsafeRawBufferPointer? {
        guard let length = integer(UInt32.self), buffer.count - offset >= Int(length) else { return nil }
        defer { offset += Int(length) }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + Int(length)])
    }

    /// A field holding UTF-8 text; `nil` when it is cut short or not valid UTF-8. ASCII (every
    /// attribute name, most values) needs no decoding to be valid.
    mutating func text() -> String? {
        guard let field = field() else { return nil }
        if !field.contains(where: { $0 >= 0x80 }) { return String(decoding: field, as: UTF8.self) }
        return validatedUTF8(field)
    }
}
