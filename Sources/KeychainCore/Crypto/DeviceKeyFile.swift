import Crypto
import Foundation
import SecureStorageFoundation

/// The device secret D: 256 random bits, kept outside the data directory in a 0600 file, in
/// clear or sealed by a TPM. Without it the database alone decrypts nothing.
///
/// File layouts (every one ends with a SHA-256 of the bytes before it, against damage):
/// - version 1, clear (69 bytes): `"SSDK"` ‖ 1 ‖ D (32) ‖ SHA-256 (32).
/// - version 2, sealed by a TPM: `"SSDK"` ‖ 2 ‖ PCR mask (3 bytes, SHA-256 bank, PCR n is bit
///   n % 8 of byte n / 8) ‖ primary name length (2, big-endian) ‖ name ‖ blob length (2) ‖
///   blob (`TPM2B_PUBLIC ‖ TPM2B_PRIVATE`) ‖ SHA-256 (32).
///
/// Unbinding rewrites the file with the same D. Binding rotates D: the new secret goes to a
/// pending file beside this one (``writeNew(at:key:sealed:)``), which replaces it once the
/// database has been rewritten under the new secret (``DeviceSecretRotationFiles``).
enum DeviceKeyFile {
    private static let magic = Data("SSDK".utf8)
    private static let clearVersion: UInt8 = 1
    private static let sealedVersion: UInt8 = 2
    static let clearFileSize = 4 + 1 + 32 + 32
    /// Larger than any sealed layout (the TPM2B structures are bounded).
    static let maximumFileSize = 4096

    /// Loads the device key, creating it first when `mayCreate` is true and no file exists: a
    /// new secret is sealed by `options.tpm` as `options.newKeychainBinding` says.
    /// Two processes creating it at once end up with the same key (the first one written).
    /// The state directory holding it is checked whenever it exists (owned by this user, not a
    /// link, not writable by others); a new key file is made by ``PlatformIO/createSecretFile(_:)``.
    static func load(at url: URL, mayCreate: Bool, options: KeychainOptions) throws(KeychainError) -> (
        SymmetricKey, DeviceBinding
    ) {
        let path = url.path
        let directory = url.deletingLastPathComponent()
        if PlatformIO.fileExists(directory.path) {
            try PlatformIO.requirePrivateDirectory(directory, role: "state directory")
        }
        if !PlatformIO.fileExists(path) {
            guard mayCreate else {
                throw KeychainError.deviceKeyFileMissing(path: path)
            }
            try PlatformIO.makePrivateDirectory(directory, role: "state directory")
            let key = SymmetricKey(size: .bits256)
            var encoded = try encode(key, binding: try newBinding(for: key, options: options))
            defer { SecretWiping.wipe(&encoded) }
            _ = try PlatformIO.writeNewPrivateFile(encoded, to: path)
        }
        try FilePermissions.requirePrivate(path, role: "device key file")
        PlatformIO.removeAbandonedTemporaryFiles(of: path)
        var bytes = try PlatformIO.readFile(path, maximumSize: maximumFileSize)
        defer { SecretWiping.wipe(&bytes) }
        switch try decode(bytes, path: path) {
        case .clear(let key):
            return (key, .keyFile)
        case .sealed(let sealed):
            guard let device = options.tpm else {
                throw KeychainError.deviceKeyFileNeedsTPM(path: path)
            }
            return (try sealed.unsealKey(on: device, path: path), .tpm(device: device, pcrs: sealed.pcrs))
        }
    }

    /// What the file at `url` says about the binding, without unsealing anything.
    static func binding(at url: URL, device: TPMDevice?) throws(KeychainError) -> DeviceBinding {
        var bytes = try PlatformIO.readFile(url.path, maximumSize: maximumFileSize)
        defer { SecretWiping.wipe(&bytes) }
        switch try decode(bytes, path: url.path) {
        case .clear: return .keyFile
        case .sealed(let sealed): return .tpm(device: device ?? TPMDevice(tcti: "none"), pcrs: sealed.pcrs)
        }
    }

    /// Replaces the file with `key` in clear or sealed by `tpm`, atomically: a crash at any point
    /// leaves the old file or the new one, both opening with the same key.
    static func rewrite(at url: URL, key: SymmetricKey, sealingWith tpm: (device: TPMDevice, pcrs: [Int])?)
        throws(KeychainError)
    {
        let sealed = try tpm.map { tpm throws(KeychainError) in
            try SealedDeviceSecret.seal(key, on: tpm.device, pcrs: tpm.pcrs)
        }
        var encoded = try encode(key, binding: sealed)
        defer { SecretWiping.wipe(&encoded) }
        let writer = try PrivateFileWriter(path: url.path)
        try writer.write(encoded)
        try writer.commit(replacingExisting: true)
    }

    /// Writes `key` (in clear, or as `sealed` says) to a new file at `url`: written and synced
    /// under a temporary name, created exclusively 0600, then linked into place, which fails with
    /// `.invalidParameter` when a file is already there. The pending file of a rotation.
    static func writeNew(at url: URL, key: SymmetricKey, sealed: SealedDeviceSecret?) throws(KeychainError) {
        var encoded = try encode(key, binding: sealed)
        defer { SecretWiping.wipe(&encoded) }
        let writer = try PrivateFileWriter(path: url.path)
        try writer.write(encoded)
        try writer.commit(replacingExisting: false)
    }

    /// The sealed form of a new keychain's secret, or `nil` for a key file.
    private static func newBinding(for key: SymmetricKey, options: KeychainOptions) throws(KeychainError)
        -> SealedDeviceSecret?
    {
        switch options.newKeychainBinding {
        case .keyFile:
            return nil
        case .tpm:
            guard let device = options.tpm else {
                throw KeychainError.tpmBindingWithoutTPM()
            }
            return try SealedDeviceSecret.seal(key, on: device, pcrs: [])
        case .automatic:
            guard let device = options.tpm, TPMDevice.isSupported else { return nil }
            return try SealedDeviceSecret.sealIfUsable(key, on: device)
        }
    }

    private enum Contents {
        case clear(SymmetricKey)
        case sealed(SealedDeviceSecret)
    }

    private static func encode(_ key: SymmetricKey, binding sealed: SealedDeviceSecret?) throws(KeychainError) -> Data {
        var body = ByteWriter(capacity: 512)
        body.append(magic)
        if let sealed {
            guard sealed.primaryName.count <= UInt16.max, sealed.blob.count <= UInt16.max else {
                throw KeychainError.tpmSealedObjectTooLarge()
            }
            body.append(sealedVersion)
            body.append(Data(SealedDeviceSecret.pcrMask(sealed.pcrs)))
            for field in [sealed.primaryName, sealed.blob] {
                body.append(bigEndian: UInt16(field.count))
                body.append(field)
            }
        } else {
            body.append(clearVersion)
            key.withUnsafeBytes { body.append(Data($0)) }
        }
        body.append(Data(SHA256.hash(data: body.data)))
        return body.data
    }

    private static func decode(_ bytes: Data, path: String) throws(KeychainError) -> Contents {
        let notOurs = KeychainError.notADeviceKeyFile(path: path)
        guard bytes.count > 4 + 1 + 32, bytes.prefix(4) == magic else { throw notOurs }
        let body = bytes.dropLast(32)
        guard Data(SHA256.hash(data: body)) == bytes.suffix(32) else {
            throw KeychainError.deviceKeyFileCorrupted(path: path)
        }
        switch bytes[bytes.startIndex + 4] {
        case clearVersion:
            guard bytes.count == clearFileSize else { throw notOurs }
            return .clear(SymmetricKey(data: body.suffix(32)))
        case sealedVersion:
            var reader = ByteReader(Data(body.dropFirst(5)))
            func field() throws(KeychainError) -> Data {
                guard let length = reader.readBigEndian(UInt16.self), let bytes = reader.readBytes(Int(length)),
                    !bytes.isEmpty
                else { throw notOurs }
                return bytes
            }
            guard let mask = reader.readBytes(3) else { throw notOurs }
            let name = try field()
            let blob = try field()
            guard reader.isAtEnd else { throw notOurs }
            return .sealed(
                SealedDeviceSecret(primaryName: name, pcrs: SealedDeviceSecret.pcrs(inMask: [UInt8](mask)), blob: blob))
        default:
            throw KeychainError.deviceKeyFileFormatTooNew(path: path, format: bytes[bytes.startIndex + 4])
        }
    }
}
