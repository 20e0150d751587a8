import Crypto
import Foundation

/// Seals record contents for the server and opens what it returns.
///
/// A record body is `generation (4) ‖ nonce (12) ‖ AES-256-GCM ciphertext ‖ tag (16)`. The
/// plaintext is the manifest counter of the push that wrote this version (8 bytes, so a device
/// can tell authentically how old a record is: the server's own sequence numbers are not
/// authenticated) and the content, padded to a size bucket (powers of two from 256 bytes, then
/// multiples of 64 KiB), so the server learns an item's size only roughly. The associated data
/// binds the circle, the generation, the record id and the version: a body moved to another
/// record, circle or version does not open.
enum RecordSealer {
    private static let label = Data("keychain-sync record 2".utf8)

    /// Seals `content` as version `version` of record `recordID`, written by the push that makes
    /// manifest counter `writtenAt`.
    static func seal(_ content: RecordContent, recordID: Data, version: Int64, writtenAt: Int64, key: CircleKey)
        throws(SyncError) -> Data
    {
        var stamped = Data()
        withUnsafeBytes(of: writtenAt.bigEndian) { stamped.append(contentsOf: $0) }
        stamped.append(content.encoded)
        let plaintext = pad(stamped)
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try AES.GCM.seal(
                plaintext, using: key.recordKey, nonce: AES.GCM.Nonce(),
                authenticating: associatedData(recordID: recordID, version: version, key: key))
        } catch {
            throw SyncError.recordSealingFailed
        }
        var body = Data()
        withUnsafeBytes(of: key.generation.bigEndian) { body.append(contentsOf: $0) }
        body.append(contentsOf: sealed.nonce)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }

    /// The generation a body says it was sealed under (unauthenticated until it opens).
    static func generation(of body: Data) -> UInt32? {
        guard body.count >= 4 else { return nil }
        return body.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Opens version `version` of record `recordID`.
    /// - Throws: ``SyncError/Code/tampered`` when the body does not open under `key` for exactly
    ///   this record and version, or holds no valid content.
    static func open(_ body: Data, recordID: Data, version: Int64, key: CircleKey) throws(SyncError) -> RecordContent {
        try openStamped(body, recordID: recordID, version: version, key: key).content
    }

    /// Opens version `version` of record `recordID`, with the manifest counter of the push that wrote it.
    /// - Throws: as ``open(_:recordID:version:key:)``.
    static func openStamped(_ body: Data, recordID: Data, version: Int64, key: CircleKey) throws(SyncError) -> (
        content: RecordContent, writtenAt: Int64
    ) {
        guard body.count >= 4 + 12 + 16, generation(of: body) == key.generation else {
            throw SyncError.tampered("a record whose body is malformed or names another key generation")
        }
        let bytes = Data(body)
        let plaintext: Data
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: bytes[4..<16]), ciphertext: bytes[16..<(bytes.count - 16)],
                tag: bytes[(bytes.count - 16)...])
            plaintext = try AES.GCM.open(
                box, using: key.recordKey,
                authenticating: associatedData(recordID: recordID, version: version, key: key))
        } catch {
            throw SyncError.tampered(
                "a record that fails authentication (altered, or moved to another record or version)")
        }
        guard let unpadded = unpad(plaintext), unpadded.count > 8,
            let content = RecordContent(encoded: Data(unpadded.dropFirst(8)))
        else {
            throw SyncError.tampered("an authentic record whose content cannot be read")
        }
        let writtenAt = unpadded.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard (1..<Manifest.counterLimit).contains(writtenAt) else {
            throw SyncError.tampered("an authentic record whose counter is out of range")
        }
        return (content, writtenAt)
    }

    private static func associatedData(recordID: Data, version: Int64, key: CircleKey) -> Data {
        var data = label
        data.append(key.circleID.bytes)
        withUnsafeBytes(of: key.generation.bigEndian) { data.append(contentsOf: $0) }
        data.append(UInt8(truncatingIfNeeded: recordID.count))
        data.append(recordID)
        withUnsafeBytes(of: version.bigEndian) { data.append(contentsOf: $0) }
        return data
    }

    /// The plaintext's length (4 bytes), the plaintext, zeros up to the bucket.
    static func pad(_ plaintext: Data) -> Data {
        let needed = plaintext.count + 4
        var size = 256
        while size < needed && size < 65_536 { size *= 2 }
        if size < needed { size = (needed + 65_535) / 65_536 * 65_536 }
        var out = Data(capacity: size)
        withUnsafeBytes(of: UInt32(plaintext.count).bigEndian) { out.append(contentsOf: $0) }
        out.append(plaintext)
        out.append(Data(count: size - needed))
        return out
    }

    /// The plaintext of ``pad(_:)``; `nil` when the length is out of range or the padding is not zero.
    static func unpad(_ padded: Data) -> Data? {
        let bytes = Data(padded)
        guard bytes.count >= 4 else { return nil }
        let length = Int(bytes.prefix(4).reduce(0) { $0 << 8 | UInt32($1) })
        guard length <= bytes.count - 4, bytes[(4 + length)...].allSatisfy({ $0 == 0 }) else { return nil }
        return bytes[4..<(4 + length)]
    }
}
