import Crypto
import Foundation

/// A keyed digest of a set of (record id, version, content digest) triples that changes in O(1)
/// when one is added or removed: the sum, modulo 2²⁵⁶, of each triple's HMAC under the circle's
/// manifest key. The content is part of it, so two histories that reach the same versions with
/// different contents (a fork) have different digests.
///
/// Without the key nobody can find another set with the same sum, so a device that rebuilds
/// the sum from the records the server returned and finds the manifest's value knows it has
/// every current record at its current version: none dropped, none replayed from before.
struct SetDigest: Sendable, Hashable {
    /// The sum, big-endian.
    private(set) var bytes: [UInt8]

    /// The digest of the empty set.
    init() { bytes = [UInt8](repeating: 0, count: 32) }

    /// A digest read back from a manifest; `nil` unless 32 bytes.
    init?(bytes: Data) {
        guard bytes.count == 32 else { return nil }
        self.bytes = Array(bytes)
    }

    /// The term of one record version.
    static func term(recordID: Data, version: Int64, content: Data, key: CircleKey) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: key.manifestKey)
        hmac.update(data: Data("keychain-sync term".utf8))
        hmac.update(data: [UInt8(truncatingIfNeeded: recordID.count)])
        hmac.update(data: recordID)
        withUnsafeBytes(of: version.bigEndian) { hmac.update(data: $0) }
        hmac.update(data: [UInt8(truncatingIfNeeded: content.count)])
        hmac.update(data: content)
        return Array(hmac.finalize())
    }

    /// Adds a record version.
    mutating func insert(recordID: Data, version: Int64, content: Data, key: CircleKey) {
        add(Self.term(recordID: recordID, version: version, content: content, key: key), negated: false)
    }

    /// Removes a record version that was added.
    mutating func remove(recordID: Data, version: Int64, content: Data, key: CircleKey) {
        add(Self.term(recordID: recordID, version: version, content: content, key: key), negated: true)
    }

    /// Adds (or subtracts) a 256-bit big-endian value modulo 2²⁵⁶.
    private mutating func add(_ term: [UInt8], negated: Bool) {
        var carry = 0
        for index in stride(from: 31, through: 0, by: -1) {
            let value =
                negated ? Int(bytes[index]) - Int(term[index]) + carry : Int(bytes[index]) + Int(term[index]) + carry
            bytes[index] = UInt8(truncatingIfNeeded: value)
            carry = value < 0 ? -1 : value >> 8
        }
    }
}
