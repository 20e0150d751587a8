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
    /// The store's keys are kept with this storage's access group, device-bound unless its
    /// ``defaultSensitivity`` is ``Sensitivity/public``.
    ///
    /// - Parameter directory: where the files go; by default `files/<service>` beside the
    ///   keychain's database on Linux (`~/.local/share/secure-storage/files/<service>`), in
    ///   Application Support on Apple platforms.
    public func files(in directory: URL? = nil) throws(SecureStorageError) -> ProtectedFiles {
        let name = String(service.map { character in
            character.isASCII && (character.isLetter || character.isNumber || "._-".contains(character)) ? character : "_"
        })
        let deviceBound = defaultSensitivity.protection.description.hasSuffix("ThisDeviceOnly")
        return try ProtectedFiles(directory: directory ?? Self.filesRoot.appendingPathComponent(name, isDirectory: true),
                                  identifier: service, accessGroup: accessGroup, deviceBound: deviceBound)
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
        try Self.requirePasscode(for: sensitivity)
        try write(data, to: name, protection: sensitivity.fileProtection)
    }

    /// Starts a file with the class `sensitivity` maps to; see ``write(_:to:sensitivity:)``.
    public func create(_ name: String, sensitivity: Sensitivity) throws(SecureStorageError) -> ProtectedFileWriter {
        try Self.requirePasscode(for: sensitivity)
        return try create(name, protection: sensitivity.fileProtection)
    }

    private static func requirePasscode(for sensitivity: Sensitivity) throws(SecureStorageError) {
        #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
        guard sensitivity.protection == .whenPasscodeSetThisDeviceOnly else { return }
        let hasPassphrase: Bool
        do {
            hasPassphrase = try SecItemEnvironment.keychain().hasPassphrase
        } catch {
            throw SecureStorageError(status: error.code.osStatus) ?? .underlying(error.code.osStatus)
        }
        if !hasPassphrase { throw .passcodeRequired }
        #endif
    }
}
