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
    static func decode(_ data: Data) -> [AttributeKey: AttributeValue]? {
        var reader = ByteReader(data)
        guard reader.readByte() == version, let count = reader.readBigEndian(UInt32.self) else { return nil }
        var attributes: [AttributeKey: AttributeValue] = [:]
        attributes.reserveCapacity(Int(min(count, 64)))  // a count from the file is not trusted for more
        for _ in 0..<count {
            guard let name = reader.readLengthPrefixedText(), let type = reader.readByte() else { return nil }
            let value: AttributeValue
            switch type {
            case UInt8(ascii: "s"):
                guard let text = reader.readLengthPrefixedText() else { return nil }
                value = .string(text)
            case UInt8(ascii: "d"):
                guard let bytes = reader.readLengthPrefixed() else { return nil }
                value = .data(bytes)
            case UInt8(ascii: "n"):
                guard let number = reader.readBigEndian(Int64.self) else { return nil }
                value = .number(number)
            case UInt8(ascii: "t"):
                guard let bits = reader.readBigEndian(UInt64.self) else { return nil }
                value = .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
            case UInt8(ascii: "b"):
                guard let flag = reader.readByte() else { return nil }
                value = .bool(flag != 0)
            default:
                return nil
            }
            attributes[AttributeKey(rawValue: name)] = value
        }
        return reader.isAtEnd ? attributes : nil
    }
}
