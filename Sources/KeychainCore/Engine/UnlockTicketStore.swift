import Foundation

/// Where this environment keeps a keychain's unlock ticket (``UnlockTicket``, the sealed bytes):
/// a file in the user's own memory-backed runtime directory when there is one
/// (``KeychainLocation/runtimeDirectoryURL``), else a key in the kernel's keyring
/// (``KernelKeyring``). Neither reaches a disk, and no other user can create either first.
enum UnlockTicketStore {
    /// `<runtime directory>/<vault id>.unlock`.
    case directory(URL)
    /// The "user" key `secure-storage:unlock:<vault id>` in the user's persistent (else user) keyring.
    case kernelKeyring

    /// The store for `location`: its runtime directory, else the kernel keyring.
    init(_ location: KeychainLocation) {
        self = location.runtimeDirectoryURL.map(UnlockTicketStore.directory) ?? .kernelKeyring
    }

    /// `runtime directory` or `kernel keyring`, for logs.
    var kind: String {
        switch self {
        case .directory: "runtime directory"
        case .kernelKeyring: "kernel keyring"
        }
    }

    /// The ticket file's path in a runtime directory; `nil` for the keyring.
    func fileURL(vaultID: UUID) -> URL? {
        guard case .directory(let directory) = self else { return nil }
        return directory.appendingPathComponent("\(vaultID.uuidString).unlock")
    }

    /// The keyring key's description.
    static func keyDescription(vaultID: UUID) -> String { "secure-storage:unlock:\(vaultID.uuidString)" }

    /// Checks that a ticket can be kept here, before anything is written: the runtime directory
    /// is the user's own, private and memory-backed (and the session directory in it is made),
    /// or the kernel keyring answers.
    func prepare() throws(KeychainError) {
        switch self {
        case .directory(let directory):
            try Keychain.requireSessionDirectory(directory)
            try PlatformIO.makePrivateDirectory(directory)
            try FilePermissions.requirePrivate(directory.path, role: "runtime directory")
            guard FileSystemKind.isMemoryBacked(directory.path) else {
                throw KeychainError(.keychainUnavailable, "\(directory.path) is not on a memory-backed file system, so no unlock session is written there.")
            }
        case .kernelKeyring:
            _ = try KernelKeyring.ring()
        }
    }

    /// Writes the ticket, replacing an earlier one; in the keyring it expires with the session.
    func write(_ sealed: Data, vaultID: UUID, expiry: Date?) throws(KeychainError) {
        switch self {
        case .directory:
            let writer = try PrivateFileWriter(path: fileURL(vaultID: vaultID)!.path)
            try writer.write(sealed)
            try writer.commit(replacingExisting: true)
        case .kernelKeyring:
            let lifetime = expiry.map { UInt32(clamping: Int64(max(1, $0.timeIntervalSinceNow.rounded(.up)))) }
            try KernelKeyring.store(sealed, as: Self.keyDescription(vaultID: vaultID), lifetime: lifetime)
        }
    }

    /// The ticket's bytes, when there is one that may be read (a file only in a runtime
    /// directory that passes the checks, and only when the file is the user's and private).
    func read(vaultID: UUID) -> Data? {
        switch self {
        case .directory(let directory):
            guard (try? Keychain.requireSessionDirectory(directory)) != nil, let path = fileURL(vaultID: vaultID)?.path else { return nil }
            PlatformIO.removeAbandonedTemporaryFiles(of: path)   // tickets whose writer was killed
            guard PlatformIO.fileExists(path), (try? FilePermissions.requirePrivate(path, role: "unlock session")) != nil else { return nil }
            return try? PlatformIO.readFile(path, maximumSize: UnlockTicket.maximumSize)
        case .kernelKeyring:
            return KernelKeyring.read(Self.keyDescription(vaultID: vaultID), maximumSize: UnlockTicket.maximumSize)?.payload
        }
    }

    /// Removes the ticket, but only when it still holds `bytes`: a concurrent unlock may have
    /// put a new one there since `bytes` were judged.
    func remove(vaultID: UUID, ifItHolds bytes: Data) {
        switch self {
        case .directory:
            guard let path = fileURL(vaultID: vaultID)?.path else { return }
            if (try? PlatformIO.readFile(path, maximumSize: UnlockTicket.maximumSize)) == bytes { PlatformIO.removeFile(path) }
        case .kernelKeyring:
            KernelKeyring.remove(Self.keyDescription(vaultID: vaultID), ifItHolds: bytes, maximumSize: UnlockTicket.maximumSize)
        }
    }

    /// Removes the ticket, whatever it holds.
    func remove(vaultID: UUID) {
        switch self {
        case .directory:
            if let path = fileURL(vaultID: vaultID)?.path { PlatformIO.removeFile(path) }
        case .kernelKeyring:
            KernelKeyring.remove(Self.keyDescription(vaultID: vaultID))
        }
    }
}
