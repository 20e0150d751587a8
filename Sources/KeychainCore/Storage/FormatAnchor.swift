import Crypto
import Foundation

/// What this machine knows about a keychain's format, kept outside the database: a small file
/// beside the device key, `keychain-<vault id>.anchor`, MAC'd under a device-derived key.
///
/// It is written when a keychain is created or upgraded, never on ordinary writes. At open, a
/// file whose format is older than its anchor says is refused: that is a keychain whose
/// state-digest columns, row seals or migration records were stripped so that the library
/// would "upgrade" it and certify its edited rows, or an older copy of the whole file. Only a
/// keychain without an anchor — one that predates format 4 — takes the upgrade path that
/// accepts its rows as they are, once, with a log line.
///
/// Layout (61 bytes): `"SSFA"` ‖ version 1 ‖ vault id (16) ‖ format (4, big-endian) ‖
/// HMAC-SHA256 of the preceding 25 bytes (32) under HKDF(device key, vault id, "sv4/format-anchor").
struct FormatAnchor: Equatable {
    var vaultID: UUID
    var formatVersion: Int

    private static let magic = Data("SSFA".utf8)
    private static let version: UInt8 = 1
    static let byteCount = 4 + 1 + 16 + 4 + 32

    /// The anchor file of a keychain.
    static func url(for location: KeychainLocation, vaultID: UUID) -> URL {
        location.deviceKeyURL.deletingLastPathComponent().appendingPathComponent("keychain-\(vaultID.uuidString).anchor")
    }

    /// The anchor of a keychain; `nil` when there is none.
    ///
    /// - Throws: `.integrityViolation` when the file exists but is malformed, for another vault,
    ///   or fails its MAC (it was edited or forged); `.keychainUnavailable` for unsafe permissions.
    static func read(for location: KeychainLocation, vaultID: UUID, deviceKey: SymmetricKey) throws(KeychainError) -> FormatAnchor? {
        let path = url(for: location, vaultID: vaultID).path
        PlatformIO.removeAbandonedTemporaryFiles(of: path)   // a writer killed before its rename
        guard PlatformIO.fileExists(path) else { return nil }
        try FilePermissions.requirePrivate(path, role: "format anchor")
        let bytes = try PlatformIO.readFile(path)
        let body = bytes.prefix(byteCount - 32)
        var reader = ByteReader(Data(body))
        guard bytes.count == byteCount, reader.readBytes(4) == magic, reader.readByte() == version,
              let id = reader.readBytes(16), UUID(bytes: id) == vaultID, let format = reader.readBigEndian(UInt32.self),
              HeaderAuthenticator.constantTimeEqual(Data(bytes.suffix(32)), mac(Data(body), deviceKey: deviceKey, vaultID: vaultID))
        else {
            throw KeychainError(.integrityViolation, "The format anchor \(path) is damaged or forged. It records which format this keychain reached; without a valid one the keychain cannot prove it was not downgraded. Restore it (and the keychain) from a backup of this machine.")
        }
        return FormatAnchor(vaultID: vaultID, formatVersion: Int(format))
    }

    /// Writes (or replaces) the anchor atomically, 0600.
    func write(for location: KeychainLocation, deviceKey: SymmetricKey) throws(KeychainError) {
        var writer = ByteWriter()
        writer.append(Self.magic)
        writer.append(Self.version)
        writer.append(vaultID.bytes)
        writer.append(bigEndian: UInt32(formatVersion))
        let body = writer.data
        let file = try PrivateFileWriter(path: Self.url(for: location, vaultID: vaultID).path)
        try file.write(body + Self.mac(body, deviceKey: deviceKey, vaultID: vaultID))
        try file.commit(replacingExisting: true)
    }

    private static func mac(_ body: Data, deviceKey: SymmetricKey, vaultID: UUID) -> Data {
        let key = KeyHierarchy.integrityKey(deviceKey: deviceKey, vaultID: vaultID, purpose: "sv4/format-anchor")
        return Data(HMAC<SHA256>.authenticationCode(for: body, using: key))
    }
}
