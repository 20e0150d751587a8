import Crypto
import Foundation
import SecureStorageFoundation

/// What this machine knows about a keychain, kept outside the database: a small file beside the
/// device key, `keychain-<vault id>.anchor`, MAC'd under a device-derived key. It records the
/// format the keychain reached and the header MAC it carries now.
///
/// - **Format.** A file whose format is older than its anchor says is refused: that is a
///   keychain whose state-digest columns, row seals or migration records were stripped so that
///   the library would "upgrade" it and certify its edited rows, or an older copy of the whole
///   file. Only a keychain without an anchor — one that predates format 4 — takes the upgrade
///   path that accepts its rows as they are, once, with a log line.
/// - **Header MAC.** The header MAC covers the keybag, the passphrase parameters and the unlock
///   session, and changes only when they do (a passphrase set, changed or removed, a session
///   started or ended) — never on ordinary writes. An older header and keybag spliced back into
///   the file carry an older MAC, which the anchor no longer accepts: that is what stops a
///   passphrase from being stripped, or a `lock` from being undone, with an old copy.
///
/// A change is two-phase, so that a crash never leaves the file and its anchor disagreeing: in
/// the writing transaction the anchor accepts the current and the next MAC; once the
/// transaction committed, it keeps only the one the file has (``Keychain/settleAnchor()``).
///
/// Layout: `"SSFA"` ‖ version 1 ‖ vault id (16) ‖ format (4, big-endian) ‖ count (1, 1 or 2) ‖
/// count × header MAC (32) ‖ HMAC-SHA256 of the preceding bytes (32) under
/// HKDF(device key, vault id, "sv4/format-anchor"): 90 or 122 bytes.
struct FormatAnchor: Equatable {
    var vaultID: UUID
    var formatVersion: Int
    /// The header MACs the file may carry: the current one, and during a change the next one too.
    var headerMACs: [Data]

    private static let magic = Data("SSFA".utf8)
    private static let version: UInt8 = 1
    private static let bodyPrefix = 4 + 1 + 16 + 4 + 1
    static let maximumSize = bodyPrefix + 2 * 32 + 32

    /// The anchor file of a keychain.
    static func url(for location: KeychainLocation, vaultID: UUID) -> URL {
        location.deviceKeyURL.deletingLastPathComponent().appendingPathComponent(
            "keychain-\(vaultID.uuidString).anchor")
    }

    /// Whether the file may carry this header MAC.
    func accepts(_ headerMAC: Data) -> Bool {
        headerMACs.contains { HeaderAuthenticator.constantTimeEqual($0, headerMAC) }
    }

    /// The anchor of a keychain; `nil` when there is none.
    ///
    /// - Throws: `.integrityViolation` when the file exists but is malformed, for another vault,
    ///   or fails its MAC (it was edited or forged); `.keychainUnavailable` for unsafe
    ///   permissions or something other than a small regular file in its place.
    static func read(for location: KeychainLocation, vaultID: UUID, deviceKey: SymmetricKey) throws(KeychainError)
        -> FormatAnchor?
    {
        try read(at: url(for: location, vaultID: vaultID), vaultID: vaultID, deviceKey: deviceKey)
    }

    /// The anchor in the file at `url` (the anchor's own file, or the pending one of a device
    /// secret rotation: ``DeviceSecretRotationFiles``); `nil` when there is none.
    static func read(at url: URL, vaultID: UUID, deviceKey: SymmetricKey) throws(KeychainError) -> FormatAnchor? {
        let path = url.path
        PlatformIO.removeAbandonedTemporaryFiles(of: path)  // a writer killed before its rename
        guard PlatformIO.fileExists(path) else { return nil }
        try FilePermissions.requirePrivate(path, role: "format anchor")
        let bytes = try PlatformIO.readFile(path, maximumSize: maximumSize)
        var reader = ByteReader(bytes)
        guard reader.readBytes(4) == magic, reader.readByte() == version,
            let id = reader.readBytes(16), UUID(bytes: id) == vaultID, let format = reader.readBigEndian(UInt32.self),
            let count = reader.readByte(), (1...2).contains(count), bytes.count == bodyPrefix + Int(count) * 32 + 32,
            HeaderAuthenticator.constantTimeEqual(
                Data(bytes.suffix(32)), mac(Data(bytes.dropLast(32)), deviceKey: deviceKey, vaultID: vaultID))
        else {
            throw KeychainError.formatAnchorDamaged(path: path)
        }
        let macs = (0..<Int(count)).compactMap { _ in reader.readBytes(32) }
        return FormatAnchor(vaultID: vaultID, formatVersion: Int(format), headerMACs: macs)
    }

    /// Writes (or replaces) the anchor atomically, 0600.
    func write(for location: KeychainLocation, deviceKey: SymmetricKey) throws(KeychainError) {
        try save(at: Self.url(for: location, vaultID: vaultID), deviceKey: deviceKey, replacingExisting: true)
    }

    /// Writes the anchor to `url` atomically, 0600; without `replacingExisting`, only if no file
    /// is there (`.invalidParameter` otherwise).
    func save(at url: URL, deviceKey: SymmetricKey, replacingExisting: Bool) throws(KeychainError) {
        precondition(
            (1...2).contains(headerMACs.count) && headerMACs.allSatisfy { $0.count == 32 },
            "an anchor records one or two header MACs")
        var writer = ByteWriter()
        writer.append(Self.magic)
        writer.append(Self.version)
        writer.append(vaultID.bytes)
        writer.append(bigEndian: UInt32(formatVersion))
        writer.append(UInt8(headerMACs.count))
        for headerMAC in headerMACs { writer.append(headerMAC) }
        let body = writer.data
        let file = try PrivateFileWriter(path: url.path)
        try file.write(body + Self.mac(body, deviceKey: deviceKey, vaultID: vaultID))
        try file.commit(replacingExisting: replacingExisting)
    }

    private static func mac(_ body: Data, deviceKey: SymmetricKey, vaultID: UUID) -> Data {
        let key = KeyHierarchy.integrityKey(deviceKey: deviceKey, vaultID: vaultID, purpose: "sv4/format-anchor")
        return Data(HMAC<SHA256>.authenticationCode(for: body, using: key))
    }
}
