import Crypto
import Foundation

/// Keyed lookup values (ARCHITECTURE decision 4): HMAC-SHA256 under the keychain's index key,
/// truncated to 16 bytes. They let SQLite match attributes and enforce Apple's duplicate rule
/// without storing any name in clear; without the key they cannot be tested against guesses.
struct BlindIndexer: Sendable {
    /// HMAC state with the key already absorbed; each index copies it, which saves the key
    /// schedule (padding, two hash blocks, allocations) on every lookup.
    private let keyed: HMAC<SHA256>

    init(key: SymmetricKey) {
        keyed = HMAC(key: key)
    }

    static let length = 16

    /// The index of one attribute value. Values must already be coerced to the attribute's kind,
    /// so that `"abc"` and `Data("abc".utf8)` of a blob attribute give the same index.
    func attribute(_ attribute: AttributeKey, _ value: AttributeValue) -> Data {
        mac(domain: "attr", [Data(attribute.rawValue.utf8), Self.canonicalBytes(value)])
    }

    /// The index of an access group.
    func accessGroup(_ group: String) -> Data {
        attribute(.accessGroup, .string(group))
    }

    /// The index of an item's whole primary key; equal exactly when Apple would report a duplicate.
    /// Missing optional parts (view hint, token id, sharing group) count as empty.
    func primaryKey(of itemClass: ItemClass, attributes: [AttributeKey: AttributeValue]) -> Data {
        var parts = [Data(itemClass.rawValue.utf8)]
        for key in ItemSchema.of(itemClass).primaryKey {
            parts.append(Data(key.rawValue.utf8))
            parts.append(attributes[key].map(Self.canonicalBytes) ?? Self.canonicalBytes(.string("")))
        }
        return mac(domain: "pk", parts)
    }

    /// The identity join value: a certificate's public-key hash or a private key's application label.
    func identityLink(_ bytes: Data) -> Data {
        mac(domain: "link", [bytes])
    }

    private func mac(domain: String, _ parts: [Data]) -> Data {
        var writer = ByteWriter()
        writer.appendLengthPrefixed(domain)
        for part in parts { writer.appendLengthPrefixed(part) }
        var hmac = keyed
        hmac.update(data: writer.data)
        return Data(hmac.finalize()).prefix(Self.length)
    }

    /// Bytes that compare equal exactly when Apple's keychain compares values equal: strings and
    /// data by their bytes, numbers by value, dates by their time.
    static func canonicalBytes(_ value: AttributeValue) -> Data {
        var writer = ByteWriter()
        switch value {
        case .string(let text):
            writer.append(0)
            writer.append(Data(text.utf8))
        case .data(let bytes):
            writer.append(0)
            writer.append(bytes)
        case .number(let number):
            writer.append(1)
            writer.append(bigEndian: number)
        case .bool(let flag):
            writer.append(1)
            writer.append(bigEndian: Int64(flag ? 1 : 0))
        case .date(let date):
            writer.append(2)
            writer.append(bigEndian: date.timeIntervalSinceReferenceDate.bitPattern)
        }
        return writer.data
    }
}
