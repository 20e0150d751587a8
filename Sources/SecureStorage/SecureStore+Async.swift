import Foundation
import SecureStorageFoundation

/// `async` reads: a value stored with `requireUserPresence` waits for the user, and a locked
/// keychain's first unlock runs scrypt, so these run on a global dispatch queue, off the
/// caller's executor (an event loop or the main actor never waits on them).
///
/// ```swift
/// let code = try await storage.data(for: "recovery")   // the prompt does not block the caller
/// ```
extension SecureStore {
    /// Raw bytes off the caller's executor; `.notFound` when nothing is stored.
    @available(*, deprecated, message: "Use data(for:), which returns nil when nothing is stored.")
    public func readSecret(for key: String) async throws(SecureStorageError) -> Data {
        try await offloadedStorageCall { () throws(SecureStorageError) in try self.readSecret(for: key) }
    }

    /// ``data(for:)`` off the caller's executor.
    public func data(for key: String) async throws(SecureStorageError) -> Data? {
        try await offloadedStorageCall { () throws(SecureStorageError) in try self.data(for: key) }
    }

    /// ``string(for:)`` off the caller's executor.
    public func string(for key: String) async throws(SecureStorageError) -> String? {
        try await offloadedStorageCall { () throws(SecureStorageError) in try self.string(for: key) }
    }
}

#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import KeychainCore

extension SecureStorage {
    /// ``unlock(from:)`` off the caller's executor (scrypt takes about 0.5 s).
    public static func unlock(from source: PassphraseSource) async throws(SecureStorageError) {
        try await offloadedStorageCall { () throws(SecureStorageError) in try unlock(from: source) }
    }

    /// ``unlock(passphrase:)`` off the caller's executor.
    public static func unlock(passphrase: String) async throws(SecureStorageError) {
        try await offloadedStorageCall { () throws(SecureStorageError) in try unlock(passphrase: passphrase) }
    }
}
#endif

/// Runs `body` off the caller's executor (SecureStorageFoundation's `offloaded(cancellation:_:)`):
/// a task cancelled before the call starts gets `.userCanceled` and nothing is read or changed; a
/// call that started finishes, so a write is never abandoned halfway.
func offloadedStorageCall<T: Sendable>(_ body: @escaping @Sendable () throws(SecureStorageError) -> T)
    async throws(SecureStorageError) -> T
{
    try await offloaded(cancellation: .userCanceled, body)
}
