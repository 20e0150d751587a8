import Foundation
import SecureStorageFoundation

/// The attributes of a Secret Service item (the D-Bus `a{ss}` map: names and values both UTF-8
/// text), as the keychain stores them in a generic-password item's `generic` attribute
/// (kSecAttrGeneric). Both `keychain migrate --from gnome-keyring` and the Secret Service provider
/// write and read this one encoding, so an item imported from GNOME Keyring keeps every attribute
/// a Secret Service client searches by.
///
/// The encoding: the magic `SSA` and a version byte (1), the pair count as a 32-bit big-endian
/// integer, then each pair, sorted by the name's UTF-8 bytes, as a length-prefixed name and a
/// length-prefixed value (``ByteWriter``'s 32-bit big-endian lengths). One map has one encoding:
/// ``decode(_:)`` rejects unsorted or repeated names, invalid UTF-8, trailing bytes, and anything
/// longer than ``maximumEncodedSize``.
package struct SecretServiceAttributes: Sendable, Hashable {
    /// The start of the view hint (`vwht`, kSecAttrSyncViewHint) that marks a generic password
    /// as the second or a later Secret Service item with the same service and account as
    /// another: `org.freedesktop.secrets.duplicate.` and what tells it apart (a random lowercase
    /// UUID for an item a Secret Service client created, `gnome-keyring.KEYRING.ID` for one
    /// `keychain migrate --from gnome-keyring` imported).
    ///
    /// The Secret Service allows several items with equal attributes; a keychain allows one
    /// generic password per primary key (account, service, access group, synchronizable, view
    /// hint, …). The view hint is the part of that key that can tell such items apart while the
    /// service and account stay exactly the client's (so `keychain find-generic-password -s
    /// SERVICE -a ACCOUNT` finds the first of them and a match-all query every one) and means
    /// nothing for an item that does not sync. The first item of a (service, account) has no
    /// view hint.
    package static let duplicateViewHintPrefix = "org.freedesktop.secrets.duplicate."

    /// The largest encoding ``decode(_:)`` accepts and ``encodedWithinBounds()`` produces: 64 KiB.
    package static let maximumEncodedSize = 65_536

    /// The magic bytes and version that open every encoding.
    private static let header: [UInt8] = Array("SSA".utf8) + [1]

    /// The attributes, name to value.
    package var pairs: [String: String]

    /// The attributes `pairs`.
    package init(_ pairs: [String: String]) { self.pairs = pairs }

    /// The pairs in encoding order: by the name's UTF-8 bytes (not by `String`'s `<`, which
    /// compares Unicode-normalized text and would let two encodings differ in order).
    private var sortedPairs: [(name: String, value: String)] {
        pairs.map { (name: $0.key, value: $0.value) }
            .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// The encoding (see the type's description). It may exceed ``maximumEncodedSize`` when
    /// the map is that large; ``encodedWithinBounds()`` checks.
    package func encoded() -> Data {
        var writer = ByteWriter()
        writer.append(Data(Self.header))
        writer.append(bigEndian: UInt32(pairs.count))
        for pair in sortedPairs {
            writer.appendLengthPrefixed(pair.name)
            writer.appendLengthPrefixed(pair.value)
        }
        return writer.data
    }

    /// The encoding, or `.invalidParameter` when it is longer than ``maximumEncodedSize``.
    package func encodedWithinBounds() throws(KeychainError) -> Data {
        let data = encoded()
        guard data.count <= Self.maximumEncodedSize else {
            throw .secretServiceAttributesTooLarge(size: data.count, limit: Self.maximumEncodedSize)
        }
        return data
    }

    /// The attributes encoded in `data`, or `.invalidParameter` naming what is wrong (too large,
    /// not this encoding, an unknown version, cut short, unsorted or repeated names, invalid
    /// UTF-8, trailing bytes). Never allocates more than `data` holds.
    package static func decode(_ data: Data) throws(KeychainError) -> SecretServiceAttributes {
        guard data.count <= maximumEncodedSize else {
            throw .secretServiceAttributesTooLarge(size: data.count, limit: maximumEncodedSize)
        }
        var reader = ByteReader(data)
        guard let magic = reader.readBytes(3), Array(magic) == Array(header.prefix(3)) else {
            throw .secretServiceAttributesMalformed("it does not start with the SSA magic")
        }
        guard let version = reader.readByte(), version == header[3] else {
            throw .secretServiceAttributesMalformed("its version is not 1")
        }
        guard let count = reader.readBigEndian(UInt32.self) else {
            throw .secretServiceAttributesMalformed("it is cut short before the pair count")
        }
        // Each pair takes at least 8 bytes, so a count the data cannot hold is refused before
        // anything is reserved for it.
        guard Int(count) <= (data.count - 8) / 8 else {
            throw .secretServiceAttributesMalformed("its pair count exceeds what its length can hold")
        }
        var pairs: [String: String] = [:]
        pairs.reserveCapacity(Int(count))
        var previous: String?
        for index in 0..<Int(count) {
            guard let name = reader.readLengthPrefixedText(), let value = reader.readLengthPrefixedText() else {
                throw .secretServiceAttributesMalformed("pair \(index + 1) is cut short or not valid UTF-8")
            }
            if let previous, !previous.utf8.lexicographicallyPrecedes(name.utf8) {
                throw .secretServiceAttributesMalformed("pair \(index + 1) is out of order or repeats a name")
            }
            previous = name
            pairs[name] = value
        }
        guard reader.isAtEnd else {
            throw .secretServiceAttributesMalformed("bytes follow its last pair")
        }
        return SecretServiceAttributes(pairs)
    }
}
