import Foundation

/// Where this environment keeps a keychain's unlock ticket (``UnlockTicket``, the sealed bytes):
/// the keychain's agent when one answers for it (`keychaind`, verified: ``KeychainAgentClient``),
/// else a file in the user's own memory-backed runtime directory when there is one
/// (``KeychainLocation/runtimeDirectoryURL``), else a key in the kernel's keyring
/// (``KernelKeyring``). None reaches a disk, and no other user can create any of them first.
enum UnlockTicketStore {
    /// `<runtime directory>/<vault id>.unlock`.
    case directory(URL)
    /// The "user" key `secure-storage:unlock:<vault id>` in the user's persistent (else user) keyring.
    case kernelKeyring
    /// The keychain's agent, in another process: it unlocks and locks, and hands out the ticket.
    case agent(KeychainAgentClient)
    /// This process is the keychain's agent: the ticket is in its memory.
    case held(AgentTicketHolder)

    /// The store for keychain `vaultID` at `location`: this process's memory when it is the
    /// keychain's agent, else the agent when one answers, else ``init(_:)``'s choice. An
    /// agent that cannot be used (a squatter of another uid, one that does not answer) is
    /// logged and left alone: the store is then the one used without an agent (``init(_:)``).
    init(_ location: KeychainLocation, vaultID: UUID) {
        if let holder = AgentTicketHolder.hosting(vaultID) {
            self = .held(holder)
            return
        }
        do {
            if let agent = try KeychainAgentClient.locate(vaultID: vaultID, databasePath: location.databaseURL.path) {
                self = .agent(agent)
                return
            }
        } catch {
            LibraryLogging.logger(component: "KeychainCore").warning(
                "keychain agent not used", metadata: ["reason": "\(error.message)"])
        }
        self.init(location)
    }

    /// The store for `location` without an agent: its runtime directory, else the kernel keyring.
    init(_ location: KeychainLocation) {
        self = location.runtimeDirectoryURL.map(UnlockTicketStore.directory) ?? .kernelKeyring
    }

    /// `runtime directory`, `kernel keyring`, `keychaind (pid N)` or `agent memory`, for logs.
    var kind: String {
        switch self {
        case .directory: "runtime directory"
        case .kernelKeyring: "kernel keyring"
        case .agent(let agent): "keychaind (pid \(agent.status.pid))"
        case .held: "agent memory"
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
                throw KeychainError.ticketDirectoryNotInMemory(directory: directory.path)
            }
        case .kernelKeyring:
            _ = try KernelKeyring.ring()
        case .agent, .held:
            break
        }
    }

    /// A new ticket, written but not yet in use: the ticket there now (if any) is untouched until
    /// ``commit()``, which replaces it in one step; ``discard()`` leaves everything as it was.
    enum StagedTicket {
        /// A temporary file beside the ticket file.
        case file(PrivateFileWriter)
        /// A key in the process's own keyring, not yet linked into the user's.
        case key(KernelKeyring.StagedKey)
        /// Bytes for the agent's memory.
        case held(AgentTicketHolder, Data)

        /// Puts the new ticket in place of the earlier one.
        func commit() throws(KeychainError) {
            switch self {
            case .file(let writer): try writer.commit(replacingExisting: true)
            case .key(let key): try key.commit()
            case .held(let holder, let bytes): holder.replace(with: bytes)
            }
        }

        /// Drops the new ticket.
        func discard() {
            switch self {
            case .file(let writer): writer.abandon()
            case .key(let key): key.discard()
            case .held: break
            }
        }
    }

    /// Writes the ticket where nothing reads it yet (a temporary file, or a key in this process's
    /// own keyring): a failure here, such as a full keyring quota, changes nothing. In the keyring
    /// the key expires with the session, or, for a session without an expiry, after
    /// ``KernelKeyring/idleLifetime`` unused.
    func stage(_ sealed: Data, vaultID: UUID, expiry: Date?) throws(KeychainError) -> StagedTicket {
        switch self {
        case .directory:
            let writer = try PrivateFileWriter(path: fileURL(vaultID: vaultID)!.path)
            do { try writer.write(sealed) } catch {
                writer.abandon()
                throw error
            }
            return .file(writer)
        case .kernelKeyring:
            let lifetime = expiry.map { UInt32(clamping: Int64(max(1, $0.timeIntervalSinceNow.rounded(.up)))) }
            return .key(try KernelKeyring.stage(sealed, as: Self.keyDescription(vaultID: vaultID), lifetime: lifetime))
        case .held(let holder):
            return .held(holder, sealed)
        case .agent:
            // Keychain.unlock(passphrase:keepingSessionFor:) hands the passphrase to the agent instead.
            throw KeychainError.agentKeepsItsOwnTickets()
        }
    }

    /// Keeps the ticket of a session without an expiry alive in the keyring: restarts its idle
    /// timeout when it still holds `bytes`. Nothing to do for a file, or a ticket with an expiry.
    func refresh(vaultID: UUID, holding bytes: Data, expiry: Date?) {
        guard case .kernelKeyring = self, expiry == nil else { return }
        KernelKeyring.refresh(
            Self.keyDescription(vaultID: vaultID), ifItHolds: bytes, maximumSize: UnlockTicket.maximumSize)
    }

    /// The ticket's bytes, when there is one that may be read (a file only in a runtime
    /// directory that passes the checks, and only when the file is the user's and private).
    func read(vaultID: UUID) -> Data? {
        switch self {
        case .directory(let directory):
            guard (try? Keychain.requireSessionDirectory(directory)) != nil, let path = fileURL(vaultID: vaultID)?.path
            else { return nil }
            PlatformIO.removeAbandonedTemporaryFiles(of: path)  // tickets whose writer was killed
            guard PlatformIO.fileExists(path),
                (try? FilePermissions.requirePrivate(path, role: "unlock session")) != nil
            else { return nil }
            return try? PlatformIO.readFile(path, maximumSize: UnlockTicket.maximumSize)
        case .kernelKeyring:
            return KernelKeyring.read(Self.keyDescription(vaultID: vaultID), maximumSize: UnlockTicket.maximumSize)?
                .payload
        case .agent(let agent):
            do { return try agent.ticket() } catch {
                LibraryLogging.logger(component: "KeychainCore").warning(
                    "keychain agent gave no ticket", metadata: ["reason": "\(error.message)"])
                return nil
            }
        case .held(let holder):
            return holder.bytes
        }
    }

    /// Removes the ticket, but only when it still holds `bytes`: a concurrent unlock may have
    /// put a new one there since `bytes` were judged.
    func remove(vaultID: UUID, ifItHolds bytes: Data) {
        switch self {
        case .directory:
            guard let path = fileURL(vaultID: vaultID)?.path else { return }
            if (try? PlatformIO.readFile(path, maximumSize: UnlockTicket.maximumSize)) == bytes {
                PlatformIO.removeFile(path)
            }
        case .kernelKeyring:
            KernelKeyring.remove(
                Self.keyDescription(vaultID: vaultID), ifItHolds: bytes, maximumSize: UnlockTicket.maximumSize)
        case .agent:
            break  // the agent judges its own ticket
        case .held(let holder):
            holder.remove(ifItHolds: bytes)
        }
    }

    /// Removes the ticket, whatever it holds; through an agent, asks it to lock (its session ends).
    func remove(vaultID: UUID) throws(KeychainError) {
        switch self {
        case .directory:
            if let path = fileURL(vaultID: vaultID)?.path { PlatformIO.removeFile(path) }
        case .kernelKeyring:
            KernelKeyring.remove(Self.keyDescription(vaultID: vaultID))
        case .agent(let agent):
            try agent.lock()
        case .held(let holder):
            holder.replace(with: nil)
        }
    }
}
