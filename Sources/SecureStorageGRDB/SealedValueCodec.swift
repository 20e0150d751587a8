import Foundation
import GRDB

/// The bytes a database value is sealed as, and the canonical encoding of the values that name
/// a sealed cell (table, column, primary key) in its authenticated data: a type byte, then the
/// value (integers and doubles as 8 big-endian bytes, text as UTF-8, blobs as they are).
enum SealedValueCodec {
    /// The first byte of every sealed cell: format 1.
    static let formatByte: UInt8 = 1

    static func encode(_ value: DatabaseValue) -> Data {
        var data: Data
        switch value.storage {
        case .null:
            data = Data([0])
        case .int64(let integer):
            data = Data(capacity: 9)
            data.append(1)
            withUnsafeBytes(of: integer.bigEndian) { data.append(contentsOf: $0) }
        case .double(let double):
            data = Data(capacity: 9)
            data.append(2)
            withUnsafeBytes(of: double.bitPattern.bigEndian) { data.append(contentsOf: $0) }
        case .string(let text):
            data = Data(capacity: 1 + text.utf8.count)
            data.append(3)
            data.append(contentsOf: text.utf8)
        case .blob(let blob):
            data = Data(capacity: 1 + blob.count)
            data.append(4)
            data.append(blob)
        }
        return data
    }

    /// The value of ``encode(_:)``'s bytes; `nil` for bytes it never produces.
    static func decode(_ bytes: Data) -> DatabaseValue? {
        guard let type = bytes.first else { return nil }
        let body = bytes.dropFirst()
        switch type {
        case 0 where body.isEmpty: return .null
        case 1 where body.count == 8:
            return Int64(bigEndian: body.withUnsafeBytes { $0.loadUnaligned(as: Int64.self) }).databaseValue
        case 2 where body.count == 8:
            return Double(bitPattern: UInt64(bigEndian: body.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }))
                .databaseValue
        case 3: return String(data: body, encoding: .utf8)?.databaseValue
        case 4: return Data(body).databaseValue  // a value of its own, indexed from 0
        default: return nil
        }
    }

    /// Length-prefixed parts, so that no two different lists encode alike.
    static func lengthPrefixed(_ parts: [Data]) -> Data {
        var data = Data()
        for part in parts {
            withUnsafeBytes(of: UInt32(part.count).bigEndian) { data.append(contentsOf: $0) }
            data.append(part)
        }
        return data
    }
}
