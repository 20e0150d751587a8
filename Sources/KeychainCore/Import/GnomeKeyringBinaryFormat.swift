import Crypto
import CryptoExtras
import Foundation
import SecureStorageFoundation

/// The binary keyring format gnome-keyring-daemon writes for a keyring with a password (facts
/// from its `gkm-secret-binary.c` and `egg-symkey.c`; this reader is written here). All integers
/// are 32-bit big-endian; a string is a length and UTF-8 bytes without NUL, length 0xFFFFFFFF
/// meaning none; a time is two integers (high, low seconds).
///
/// - header: the magic `GnomeKeyring\n\r\0\n`, four bytes (major 0, minor 0, crypto 0 = AES,
///   hash 0 = MD5), the keyring's display name, its modification and creation times, flags,
///   lock timeout, hash iterations, an 8-byte salt, four reserved integers;
/// - the index: the item count, then per item its id, type and attributes with hashed values
///   (a count, then name, kind 0 and a string — the value's MD5 in hex — or kind 1 and an integer);
/// - the encrypted block: its length (a multiple of 16) and the AES-128-CBC ciphertext, key and
///   IV the first and second halves of SHA-256 iterated over password ‖ salt. Decrypted, it is
///   the MD5 of the rest, then per item (in the index's order) its display name, secret (a
///   length-prefixed byte string), creation and modification times, a reserved string and four
///   reserved integers, its attributes with their values, and its access-control list (a count,
///   then per entry the allowed types, a display name, a path, a reserved string and integer),
///   padded with zeros to 16 bytes.
enum GnomeKeyringBinaryFormat {
    /// The 16 bytes every binary keyring file starts with.
    static let magic = Data("GnomeKeyring\n\r\0\n".utf8)

    /// The most hash iterations accepted: gnome-keyring writes 1000–4095; a crafted file asking
    /// for billions would hang the reader.
    static let maximumHashIterations: UInt32 = 100_000

    /// The index entry of one item (its attributes' values hashed).
    private struct IndexEntry {
        let id: UInt32
        let type: UInt32
        let attributes: [String: Value]
    }

    /// An attribute value as stored: text, or an integer (gnome-keyring's uint32 attributes).
    private enum Value: Equatable {
        case text(String)
        case number(UInt32)

        var text: String {
            switch self {
            case .text(let text): text
            case .number(let number): String(number)
            }
        }
    }

    static func parse(_ contents: Data, password: Data, keyringName: String) throws(KeychainError) -> GnomeKeyring {
        var reader = FieldReader(ByteReader(contents.dropFirst(magic.count)), keyring: keyringName)
        let version = try (reader.byte("the major version"), reader.byte("the minor version"))
        let algorithms = try (reader.byte("the cipher"), reader.byte("the hash"))
        guard version == (0, 0), algorithms == (0, 0) else {
            throw .gnomeKeyringUnsupported(
                keyring: keyringName,
                what: "version \(version.0).\(version.1), cipher \(algorithms.0), hash \(algorithms.1)")
        }
        let displayName = try reader.string("the keyring's name") ?? ""
        _ = try (reader.time("the keyring's modification time"), reader.time("the keyring's creation time"))
        _ = try (reader.integer("the flags"), reader.integer("the lock timeout"))
        let iterations = try reader.integer("the hash iterations")
        guard (1...maximumHashIterations).contains(iterations) else {
            throw .gnomeKeyringDamaged(
                keyring: keyringName,
                what: "its hash iteration count \(iterations) is outside 1…\(maximumHashIterations)")
        }
        let salt = try reader.bytes(8, "the salt")
        for _ in 0..<4 { _ = try reader.integer("a reserved field") }
        // Each index entry takes at least 12 bytes.
        let count = try reader.count("the item count", minimumEach: 12)
        var index: [IndexEntry] = []
        for number in 1..<count + 1 {
            let id = try reader.integer("item \(number)'s id")
            let type = try reader.integer("item \(number)'s type")
            let attributes = try readAttributes(&reader, of: "item \(number)")
            guard !index.contains(where: { $0.id == id }) else {
                throw .gnomeKeyringDamaged(keyring: keyringName, what: "item id \(id) appears twice in its index")
            }
            index.append(IndexEntry(id: id, type: type, attributes: attributes))
        }
        let size = try reader.integer("the encrypted block's length")
        guard size % 16 == 0, size >= 16 else {
            throw .gnomeKeyringDamaged(
                keyring: keyringName, what: "its encrypted block's length \(size) is not a positive multiple of 16")
        }
        var ciphertext = try reader.bytes(Int(size), "the encrypted block")
        defer { SecretWiping.wipe(&ciphertext) }
        guard reader.isAtEnd else {
            throw .gnomeKeyringDamaged(keyring: keyringName, what: "bytes follow its encrypted block")
        }
        var plaintext = try decrypt(ciphertext, password: password, salt: salt, iterations: iterations, keyringName)
        defer { SecretWiping.wipe(&plaintext) }
        let checksumMatches = Data(Insecure.MD5.hash(data: plaintext.dropFirst(16))) == plaintext.prefix(16)
        let items: [GnomeKeyring.Item]
        do {
            items = try readItems(plaintext.dropFirst(16), index: index, keyringName: keyringName)
        } catch {
            // Random bytes (a wrong key) almost never parse as the items the index announces. A
            // right key on a damaged block garbles only the damaged 16 bytes (and one bit of the
            // next): the rest still shows the format's runs of zeros (each item's four reserved
            // integers, the padding), which a wrong key produces with a chance of about 2^-54.
            guard checksumMatches else {
                guard Self.hasZeroRun(plaintext.dropFirst(16)) else {
                    throw .gnomeKeyringWrongPassword(keyring: keyringName)
                }
                throw .gnomeKeyringDamaged(
                    keyring: keyringName,
                    what: "its encrypted block decrypts but does not match its checksum (modified or damaged)")
            }
            throw error
        }
        // With no items there is nothing to parse but the checksum: a mismatch is a wrong key.
        guard checksumMatches || !index.isEmpty else { throw .gnomeKeyringWrongPassword(keyring: keyringName) }
        guard checksumMatches else {
            // The items parse and agree with the index, so the key is right: the block was modified.
            throw .gnomeKeyringDamaged(
                keyring: keyringName, what: "its encrypted block does not match its checksum (modified or damaged)")
        }
        return GnomeKeyring(displayName: displayName, items: items, wasTextual: false)
    }

    /// Whether `bytes` hold 8 zero bytes in a row.
    private static func hasZeroRun(_ bytes: Data) -> Bool {
        var run = 0
        for byte in bytes {
            run = byte == 0 ? run + 1 : 0
            if run == 8 { return true }
        }
        return false
    }

    /// Key and IV: the first and second halves of SHA-256(password ‖ salt) hashed again
    /// `iterations - 1` times (one pass of egg_symkey_generate_simple suffices for AES-128).
    private static func decrypt(
        _ ciphertext: Data, password: Data, salt: Data, iterations: UInt32, _ keyringName: String
    ) throws(KeychainError) -> Data {
        var hasher = SHA256()
        hasher.update(data: password)
        hasher.update(data: salt)
        var digest = Array(hasher.finalize())
        for _ in 1..<iterations { digest = Array(SHA256.hash(data: digest)) }
        defer { SecretWiping.wipe(&digest) }
        do {
            return try AES._CBC.decrypt(
                ciphertext, using: SymmetricKey(data: digest[0..<16]), iv: AES._CBC.IV(ivBytes: digest[16..<32]),
                noPadding: true)
        } catch {
            throw .gnomeKeyringDamaged(keyring: keyringName, what: "its encrypted block cannot be decrypted")
        }
    }

    private static func readItems(_ block: Data, index: [IndexEntry], keyringName: String) throws(KeychainError)
        -> [GnomeKeyring.Item]
    {
        var reader = FieldReader(ByteReader(block), keyring: keyringName)
        defer { reader.wipe() }
        var items: [GnomeKeyring.Item] = []
        for (position, entry) in index.enumerated() {
            let name = "item \(position + 1)"
            let label = try reader.string("\(name)'s display name") ?? ""
            let secret = try reader.byteString("\(name)'s secret") ?? Data()
            _ = try (reader.time("\(name)'s creation time"), reader.time("\(name)'s modification time"))
            _ = try reader.string("\(name)'s reserved string")
            for _ in 0..<4 { _ = try reader.integer("\(name)'s reserved field") }
            let attributes = try readAttributes(&reader, of: name)
            try checkIndex(entry, against: attributes, keyringName: keyringName, item: name)
            // Access-control entries (kept by gnome-keyring for old clients): read and dropped;
            // each takes at least 16 bytes.
            let entries = try reader.count("\(name)'s access-control count", minimumEach: 16)
            for number in 1..<entries + 1 {
                _ = try reader.integer("\(name)'s access-control entry \(number)")
                _ = try (reader.string("\(name)'s access-control entry \(number)"), reader.string("an ACL path"))
                _ = try (reader.string("an ACL reserved string"), reader.integer("an ACL reserved field"))
            }
            items.append(
                GnomeKeyring.Item(
                    id: entry.id, label: label, secret: secret, attributes: servedAttributes(attributes),
                    itemType: entry.type))
        }
        let padding = reader.remaining()
        guard padding.count < 16, padding.allSatisfy({ $0 == 0 }) else {
            throw .gnomeKeyringDamaged(keyring: keyringName, what: "its decrypted block has bytes after its last item")
        }
        return items
    }

    /// The attributes as gnome-keyring-daemon serves them: a uint32 attribute as decimal text,
    /// marked by an empty `gkr:compat:uint32:NAME` (so the daemon writes it back as a uint32).
    private static func servedAttributes(_ attributes: [String: Value]) -> [String: String] {
        var served = attributes.mapValues(\.text)
        for (name, value) in attributes {
            if case .number = value, served["gkr:compat:uint32:" + name] == nil {
                served["gkr:compat:uint32:" + name] = ""
            }
        }
        return served
    }

    /// The index holds each attribute's name and its value hashed: text as its MD5 in hex, a
    /// number as gnome-keyring's integer hash.
    private static func checkIndex(
        _ entry: IndexEntry, against attributes: [String: Value], keyringName: String, item: String
    ) throws(KeychainError) {
        guard Set(entry.attributes.keys) == Set(attributes.keys) else {
            throw .gnomeKeyringDamaged(keyring: keyringName, what: "\(item)'s attribute names differ from its index")
        }
        for (name, value) in attributes {
            switch (value, entry.attributes[name]) {
            case (.text(let text), .text(let hashed)?):
                let hex = Insecure.MD5.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
                if hex == hashed { continue }
            case (.number(let number), .number(let hashed)?):
                // gnome-keyring's hash of a uint32 attribute (compat_hash_value_as_uint32).
                if hashed == 0x1827_3645 ^ number ^ (number << 16 | number >> 16) { continue }
            default:
                break
            }
            throw .gnomeKeyringDamaged(keyring: keyringName, what: "\(item)'s attributes differ from its index")
        }
    }

    private static func readAttributes(_ reader: inout FieldReader, of item: String) throws(KeychainError)
        -> [String: Value]
    {
        // Each attribute takes at least 12 bytes (name length, kind, value).
        let count = try reader.count("\(item)'s attribute count", minimumEach: 12)
        var attributes: [String: Value] = [:]
        for number in 1..<count + 1 {
            let field = "\(item)'s attribute \(number)"
            guard let name = try reader.string("\(field)'s name") else {
                throw reader.damaged("\(field) has no name")
            }
            let value: Value
            switch try reader.integer("\(field)'s kind") {
            case 0: value = .text(try reader.string("\(field)'s value") ?? "")
            case 1: value = .number(try reader.integer("\(field)'s value"))
            case let kind: throw reader.damaged("\(field) has an unknown kind \(kind)")
            }
            guard attributes.updateValue(value, forKey: name) == nil else {
                throw reader.damaged("\(field) repeats a name")
            }
        }
        return attributes
    }
}

/// Reads the binary format's fields, each failure naming the field that is cut short or invalid.
private struct FieldReader {
    private var reader: ByteReader
    let keyring: String

    init(_ reader: ByteReader, keyring: String) {
        self.reader = reader
        self.keyring = keyring
    }

    var isAtEnd: Bool { reader.isAtEnd }
    mutating func wipe() { reader.wipe() }
    mutating func remaining() -> Data { reader.readRemaining() }

    func damaged(_ what: String) -> KeychainError { .gnomeKeyringDamaged(keyring: keyring, what: what) }

    mutating func byte(_ field: String) throws(KeychainError) -> UInt8 {
        guard let byte = reader.readByte() else { throw damaged("it is cut short in \(field)") }
        return byte
    }

    mutating func integer(_ field: String) throws(KeychainError) -> UInt32 {
        guard let value = reader.readBigEndian(UInt32.self) else { throw damaged("it is cut short in \(field)") }
        return value
    }

    mutating func time(_ field: String) throws(KeychainError) -> UInt64 {
        guard let value = reader.readBigEndian(UInt64.self) else { throw damaged("it is cut short in \(field)") }
        return value
    }

    mutating func bytes(_ count: Int, _ field: String) throws(KeychainError) -> Data {
        guard let bytes = reader.readBytes(count) else { throw damaged("it is cut short in \(field)") }
        return bytes
    }

    /// A count of records each at least `minimumEach` bytes long, refused when the rest of the
    /// input cannot hold that many (so a crafted count reserves nothing and loops over nothing).
    mutating func count(_ field: String, minimumEach: Int) throws(KeychainError) -> Int {
        let count = Int(try integer(field))
        let left = reader.remainingCount
        guard count <= left / minimumEach else {
            throw damaged("\(field) \(count) is more than its remaining \(left) bytes can hold")
        }
        return count
    }

    /// A length-prefixed byte string; nil for the length 0xFFFFFFFF (none).
    mutating func byteString(_ field: String) throws(KeychainError) -> Data? {
        let length = try integer(field)
        if length == 0xFFFF_FFFF { return nil }
        guard length < 0x7FFF_FFFF, let bytes = reader.readBytes(Int(length)) else {
            throw damaged("\(field) is longer than the rest of the input")
        }
        return bytes
    }

    /// A length-prefixed UTF-8 string without NUL; nil for none.
    mutating func string(_ field: String) throws(KeychainError) -> String? {
        guard let bytes = try byteString(field) else { return nil }
        guard !bytes.contains(0), let text = String(data: bytes, encoding: .utf8) else {
            throw damaged("\(field) is not valid UTF-8 text")
        }
        return text
    }
}
