import Crypto
import Foundation
import SecureStorageFoundation

/// Keyed lookup values: HMAC-SHA256 under the keychain's index key,
/// truncated to 16 bytes. They let SQLite match attributes and enforce Apple's duplicate rule
/// without storing any name in clear; without the key they cannot be tested against guesses.
struct BlindIndexer: Sendable {
    /// HMAC state with the key already absorbed; each index copies it, which saves the key
    /// schedule (padding, two hash blocks, allocations) on every lookup.
    private let keyed: HMAC<SHA256>
    /// The indexes of the access groups this instance saw, at most ``groupCacheLimit`` of them:
    /// every SecItem query filters on the caller's groups, every add writes one, and a process
    /// has a handful. They hold nothing the index key does not already derive, and go with it.
    private let groupIndexes = Locked<[Data: Data]>([:])
    static let groupCacheLimit = 64

    /// The lookup tag every library-owned item carries (``LibraryOwner``), whatever its owner:
    /// queries of apps select only rows without it.
    let libraryOwnedTag: Data
    /// The lookup tag the upgrade to format 6 gave every item the keychain held then: an item
    /// the library wrote under its fixed names before it had a namespace of its own is taken
    /// into it only while it carries this tag (covered by its row seal), that is, only if no one
    /// rewrote it since the upgrade.
    let writtenBeforeOwnershipTag: Data

    init(key: SymmetricKey) {
        let keyed = HMAC<SHA256>(key: key)
        self.keyed = keyed
        libraryOwnedTag = Self.finish(keyed, MACInput(domain: "owned"))
        writtenBeforeOwnershipTag = Self.finish(keyed, MACInput(domain: "pre-v6"))
    }

    static let length = 16

    /// The index of one attribute value. Values must already be coerced to the attribute's kind,
    /// so that `"abc"` and `Data("abc".utf8)` of a blob attribute give the same index.
    func attribute(_ attribute: AttributeKey, _ value: AttributeValue) -> Data {
        var input = MACInput(domain: "attr")
        input.append(part: attribute.rawValue.utf8)
        input.append(canonical: value)
        return finish(input)
    }

    /// The index of an access group.
    func accessGroup(_ group: String) -> Data {
        // Keyed by the UTF-8 bytes: Swift's String == is canonical equivalence ("é" == "e\u{301}").
        let key = Data(group.utf8)
        if let cached = groupIndexes.withLock({ $0[key] }) { return cached }
        let index = attribute(.accessGroup, .string(group))
        groupIndexes.withLock { cache in
            if cache.count >= Self.groupCacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[key] = index
        }
        return index
    }

    /// The index of an item's whole primary key; equal exactly when Apple would report a duplicate.
    /// Missing optional parts (view hint, token id, sharing group) count as empty.
    func primaryKey(of itemClass: ItemClass, attributes: [AttributeKey: AttributeValue]) -> Data {
        var input = MACInput(domain: "pk")
        input.append(part: itemClass.rawValue.utf8)
        for key in ItemSchema.of(itemClass).primaryKey {
            input.append(part: key.rawValue.utf8)
            input.append(canonical: attributes[key] ?? .string(""))
        }
        // A library-owned item's key names its owner too: it never collides with an app's item
        // of the same names (the index of every other item is unchanged).
        if let owner = attributes[LibraryOwner.attribute] {
            input.append(part: LibraryOwner.attribute.rawValue.utf8)
            input.append(canonical: owner)
        }
        return finish(input)
    }

    /// The identity join value: a certificate's public-key hash or a private key's application label.
    func identityLink(_ bytes: Data) -> Data {
        var input = MACInput(domain: "link")
        input.append(part: bytes)
        return finish(input)
    }

    /// Whether two values have the same canonical bytes (``MACInput/append(canonical:)``), so
    /// the same index under any key: what a row SQLite selected by an index is checked with once
    /// its attributes are decrypted, without computing the index again.
    static func canonicallyEqual(_ first: AttributeValue, _ second: AttributeValue) -> Bool {
        switch (first, second) {
        case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
        case (.data(let a), .data(let b)): a == b
        case (.string(let a), .data(let b)), (.data(let b), .string(let a)): a.utf8.elementsEqual(b)
        case (.number, .number), (.number, .bool), (.bool, .number), (.bool, .bool):
            first.numberValue == second.numberValue
        case (.date(let a), .date(let b)):
            a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        default: false
        }
    }

    private func finish(_ input: MACInput) -> Data {
        Self.finish(keyed, input)
    }

    private static func finish(_ keyed: HMAC<SHA256>, _ input: MACInput) -> Data {
        var hmac = keyed
        input.bytes.withUnsafeBytes { hmac.update(data: $0) }
        return hmac.finalize().withUnsafeBytes { Data($0.prefix(Self.length)) }
    }

    /// The bytes an index MACs: the domain, then each part, each with a 32-bit big-endian length
    /// (the format every stored index was made with; `BlindIndexerTests` pins it). Built in one
    /// buffer: indexes are computed for every attribute of every item written.
    private struct MACInput {
        private(set) var bytes: [UInt8] = []

        init(domain: StaticString) {
            bytes.reserveCapacity(96)
            domain.withUTF8Buffer { append(part: $0) }
        }

        mutating func append(part: some Collection<UInt8>) {
            appendLength(part.count)
            bytes.append(contentsOf: part)
        }

        /// A part holding `value`'s canonical bytes, which compare equal exactly when Apple's
        /// keychain compares the values equal: strings and data by their bytes (tag 0), numbers
        /// and booleans as 64-bit integers (tag 1), dates by their time (tag 2).
        mutating func append(canonical value: AttributeValue) {
            switch value {
            case .string(let text):
                appendLength(1 + text.utf8.count)
                bytes.append(0)
                bytes.append(contentsOf: text.utf8)
            case .data(let data):
                appendLength(1 + data.count)
                bytes.append(0)
                bytes.append(contentsOf: data)
            case .number(let number):
                appendLength(9)
                bytes.append(1)
                appendBigEndian(number)
            case .bool(let flag):
                appendLength(9)
                bytes.append(1)
                appendBigEndian(Int64(flag ? 1 : 0))
            case .date(let date):
                appendLength(9)
                bytes.append(2)
                appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern)
            }
        }

        private mutating func appendLength(_ count: Int) { appendBigEndian(UInt32(count)) }

        private mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
        }
    }
}
