import Foundation
#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import KeychainCore
import KeychainServices
#endif

extension SecureStorage {
    /// The protected files of this service: for values too large for the keychain (documents,
    /// exports, downloads), written with ``ProtectedFiles/write(_:to:sensitivity:)`` so that
    /// the same ``Sensitivity`` tags decide.
    ///
    /// ```swift
    /// let storage = SecureStorage(service: "com.acme.notes")
    /// let files = try storage.files()
    /// try files.write(export, to: "export.json", sensitivity: .secret)      // complete
    /// ```
    ///
    /// The store is identified by the service: its keys are the items of
    /// ``ProtectedFiles/keyService(for:)`` with this storage's access group, device-bound when its
    /// ``defaultSensitivity`` is (every tag but ``Sensitivity/public``), for all its files. Use
    /// one directory per service; for several stores of one service, create ``ProtectedFiles``
    /// with an identifier of each.
    ///
    /// - Parameter directory: where the files go; by default `files/<service>` (see
    ///   ``directoryName(for:)``) beside the keychain's database on Linux
    ///   (`~/.local/share/secure-storage/files/…`), in Application Support on Apple platforms.
    public func files(in directory: URL? = nil) throws(SecureStorageError) -> ProtectedFiles {
        try ProtectedFiles(
            directory: directory
                ?? Self.filesRoot.appendingPathComponent(Self.directoryName(for: service), isDirectory: true),
            identifier: service, accessGroup: accessGroup, deviceBound: defaultSensitivity.protection.isThisDeviceOnly)
    }

    /// The directory name of a service's store: the service with every byte but ASCII letters,
    /// digits, `.`, `_` and `-` percent-encoded, and a leading `.` too, so that no two services
    /// share one and none is hidden, `.`, `..` or a path (`com.acme/app` → `com.acme%2Fapp`).
    public static func directoryName(for service: String) -> String {
        let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".utf8)
        let name = service.utf8.enumerated().map { index, byte in
            kept.contains(byte) && !(index == 0 && byte == UInt8(ascii: "."))
                ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
        return name.isEmpty ? "%" : name
    }

    /// The directory holding each service's default store of protected files.
    static var filesRoot: URL {
        #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
        // Beside the keychain in use (a test or an app may have chosen another than the default).
        ((try? SecItemEnvironment.keychain().location) ?? KeychainLocation.default).databaseURL
            .deletingLastPathComponent().appendingPathComponent("files", isDirectory: true)
        #else
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("SecureStorage/files", isDirectory: true)
        #endif
    }
}

extension ProtectedFiles {
    /// Writes `data` with the file class `sensitivity` maps to (``Sensitivity/fileProtection``).
    ///
    /// - Throws: ``SecureStorageError/passcodeRequired`` for ``Sensitivity/topSecret`` on Linux
    ///   when the keychain has no passphrase (on Apple platforms such files are
    ///   ``FileProtection/complete``, which without a passcode protects like the device does).
    public func write(_ data: Data, to name: String, sensitivity: Sensitivity) throws(SecureStorageError) {
        try about(name) { () throws(SecureStorageError) in try Self.requirePasscode(for: sensitivity) }
        try write(data, to: name, protection: sensitivity.fileProtection)
    }

    /// Starts a file with the class `sensitivity` maps to; see ``write(_:to:sensitivity:)``.
    public func create(_ name: String, sensitivity: Sensitivity) throws(SecureStorageError) -> ProtectedFileWriter {
        try about(name) { () throws(SecureStorageError) in try Self.requirePasscode(for: sensitivity) }
        return try create(name, protection: sensitivity.fileProtection)
    }

    private static func requirePasscode(for sensitivity: Sensitivity) throws(SecureStorageError) {
        #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
        guard sensitivity.protection == .whenPasscodeSetThisDeviceOnly else { return }
        let hasPassphrase: Bool
        do {
            hasPassphrase = try SecItemEnvironment.keychain().hasPassphrase
        } catch {
            throw SecureStorageError(error)
        }
        if !hasPassphrase { throw .passcodeRequired }
        #endif
    }
}
