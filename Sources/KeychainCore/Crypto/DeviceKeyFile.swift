import Crypto
import Foundation

/// The device secret D: 256 random bits in a 0600 file kept outside the data directory.
/// Without it the database alone decrypts nothing.
///
/// File layout (69 bytes): `"SSDK"` ‖ version 1 ‖ key (32) ‖ SHA-256 of the first 37 bytes (32).
enum DeviceKeyFile {
    private static let magic = Data("SSDK".utf8)
    private static let version: UInt8 = 1
    static let fileSize = 4 + 1 + 32 + 32

    /// Loads the device key, creating it first when `mayCreate` is true and no file exists.
    /// Two processes creating it at once end up with the same key (the first one written).
    /// The state directory holding it is checked whenever it exists (owned by this user, not a
    /// link, not writable by others); a new key file is made by ``PlatformIO/createSecretFile(_:)``.
    static func load(at url: URL, mayCreate: Bool) throws(KeychainError) -> SymmetricKey {
        let path = url.path
        let directory = url.deletingLastPathComponent()
        if PlatformIO.fileExists(directory.path) { try PlatformIO.requirePrivateDirectory(directory, role: "state directory") }
        if !PlatformIO.fileExists(path) {
            guard mayCreate else {
                throw KeychainError(.keychainUnavailable, "The device key file \(path) is missing, and the keychain was created with it. Without it the keychain cannot be decrypted: restore the file from a backup of this machine, or move the keychain aside to start a new one.")
            }
            try PlatformIO.makePrivateDirectory(directory, role: "state directory")
            var encoded = encode(SymmetricKey(size: .bits256))
            defer { SecretWiping.wipe(&encoded) }
            _ = try PlatformIO.writeNewPrivateFile(encoded, to: path)
        }
        try FilePermissions.requirePrivate(path, role: "device key file")
        PlatformIO.removeAbandonedTemporaryFiles(of: path)
        var bytes = try PlatformIO.readFile(path, maximumSize: fileSize)
        defer { SecretWiping.wipe(&bytes) }
        return try decode(bytes, path: path)
    }

    private static func encode(_ key: SymmetricKey) -> Data {
        var body = Data(capacity: fileSize)
        body.append(magic)
        body.append(version)
        key.withUnsafeBytes { body.append(contentsOf: $0) }
        body.append(contentsOf: SHA256.hash(data: body))
        return body
    }

    private static func decode(_ bytes: Data, path: String) throws(KeychainError) -> SymmetricKey {
        guard bytes.count == fileSize, bytes.prefix(4) == magic, bytes[bytes.startIndex + 4] == version else {
            throw KeychainError(.keychainUnavailable, "The device key file \(path) is not a SecureStorage device key (wrong size or header). Restore it from a backup; do not replace it, or every item in the keychain becomes unreadable.")
        }
        let body = bytes.prefix(37)
        guard Data(SHA256.hash(data: body)) == bytes.suffix(32) else {
            throw KeychainError(.keychainUnavailable, "The device key file \(path) is corrupted (checksum mismatch). Restore it from a backup.")
        }
        return SymmetricKey(data: body.suffix(32))
    }
}
