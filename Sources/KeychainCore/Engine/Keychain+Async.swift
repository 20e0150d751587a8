import Foundation
import SecureStorageFoundation

/// `async` versions of the calls that can block for long: unlocking (scrypt, about 0.5 s),
/// reads and key uses that may wait for the user, and backups. Each runs on a global dispatch
/// queue, off the caller's executor, so an event loop (NIO, Hummingbird, Vapor) or the main
/// actor never waits on it; the synchronous calls stay.
///
/// ```swift
/// let keychain = try Keychain()
/// try await keychain.unlock(from: .systemdCredential())
/// let items = try await keychain.find(Query(.genericPassword, [.service: "api"], limit: .one), returning: .data)
/// ```
extension Keychain {
    /// ``unlock(passphrase:)`` off the caller's executor.
    public func unlock(passphrase: String) async throws(KeychainError) {
        try await Self.offloaded { () throws(KeychainError) in try self.unlock(passphrase: passphrase) }
    }

    /// ``unlock(from:keepingSessionFor:environment:)`` off the caller's executor.
    public func unlock(
        from source: PassphraseSource, keepingSessionFor duration: Duration? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws(KeychainError) {
        try await Self.offloaded { () throws(KeychainError) in
            try self.unlock(from: source, keepingSessionFor: duration, environment: environment)
        }
    }

    /// ``find(_:returning:)`` off the caller's executor (it may prompt for protected items).
    public func find(_ query: Query, returning options: ReturnOptions = [.attributes]) async throws(KeychainError)
        -> [FoundItem]
    {
        try await Self.offloaded { () throws(KeychainError) in try self.find(query, returning: options) }
    }

    /// ``findFirst(_:returning:)`` off the caller's executor.
    public func findFirst(_ query: Query, returning options: ReturnOptions = [.attributes]) async throws(KeychainError)
        -> FoundItem?
    {
        try await Self.offloaded { () throws(KeychainError) in try self.findFirst(query, returning: options) }
    }

    /// ``signWithTokenKey(_:digest:authentication:)`` off the caller's executor.
    public func signWithTokenKey(
        _ reference: PersistentReference, digest: Data,
        authentication: AuthenticationOptions = AuthenticationOptions()
    ) async throws(KeychainError) -> Data {
        try await Self.offloaded { () throws(KeychainError) in
            try self.signWithTokenKey(reference, digest: digest, authentication: authentication)
        }
    }

    /// ``keyAgreementWithTokenKey(_:peerPublicKey:authentication:)`` off the caller's executor.
    public func keyAgreementWithTokenKey(
        _ reference: PersistentReference, peerPublicKey: Data,
        authentication: AuthenticationOptions = AuthenticationOptions()
    ) async throws(KeychainError) -> Data {
        try await Self.offloaded { () throws(KeychainError) in
            try self.keyAgreementWithTokenKey(reference, peerPublicKey: peerPublicKey, authentication: authentication)
        }
    }

    /// ``exportBackup(to:passphrase:replacingExisting:progress:)`` off the caller's executor.
    public func exportBackup(to url: URL, passphrase: String, replacingExisting: Bool = false)
        async throws(KeychainError) -> BackupExportSummary
    {
        try await Self.offloaded { () throws(KeychainError) in
            try self.exportBackup(to: url, passphrase: passphrase, replacingExisting: replacingExisting)
        }
    }

    /// ``importBackup(from:passphrase:onDuplicate:progress:)`` off the caller's executor.
    public func importBackup(
        from url: URL, passphrase: String,
        onDuplicate policy: BackupDuplicatePolicy = .keepExisting
    ) async throws(KeychainError) -> BackupImportSummary {
        try await Self.offloaded { () throws(KeychainError) in
            try self.importBackup(from: url, passphrase: passphrase, onDuplicate: policy)
        }
    }

    /// Runs `body` off the caller's executor (SecureStorageFoundation's `offloaded(cancellation:_:)`): a task cancelled
    /// before the call starts gets `.userCanceled` and nothing is read or changed; a call that
    /// started finishes, so a write is never abandoned halfway.
    static func offloaded<T: Sendable>(_ body: @escaping @Sendable () throws(KeychainError) -> T)
        async throws(KeychainError) -> T
    {
        try await SecureStorageFoundation.offloaded(
            cancellation: KeychainError.taskCancelled(), body)
    }
}
