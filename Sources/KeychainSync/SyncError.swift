import KeychainCore

/// The one error type of KeychainSync: what went wrong and a message that says what to do.
///
/// Messages never contain secret data: no item data or attributes, no keys, no server password.
///
/// ```swift
/// do {
///     try synchronizer.syncNow()
/// } catch let error as SyncError where error.code == .serverUnreachable {
///     // offline: local writes stay queued in the keychain and are pushed by a later sync
/// }
/// ```
public struct SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The server could not be reached or dropped the connection; nothing was lost and a
        /// later sync retries.
        case serverUnreachable
        /// The server refused a statement (a missing table, no permission, a full disk).
        case serverRejected
        /// What the server returned fails authentication: a record or the circle's manifest was
        /// altered, swapped, replayed from an older state or dropped. Nothing was applied.
        case tampered
        /// This keychain belongs to no sync circle, or to another one than the request names.
        case notAMember
        /// A code typed for joining or approving does not match: mistyped, expired, or not for
        /// this circle.
        case invalidCode
        /// The device was removed from the circle: it no longer holds the current circle key.
        case removed
        /// A request that does not fit the circle's state (joining twice, approving nothing).
        case invalidState
        /// The local keychain failed; ``keychainError`` says how.
        case keychain
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do; never secret data.
    public let message: String
    /// The keychain's own error, for ``Code/keychain``.
    public let keychainError: KeychainError?
    /// The server's SQLSTATE, for ``Code/serverRejected``.
    public let sqlState: String?

    /// An error of `code` with `message`.
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - message: what went wrong and what to do; never secret data.
    ///   - keychainError: the keychain's error, for ``Code/keychain``.
    ///   - sqlState: the server's SQLSTATE, for ``Code/serverRejected``.
    public init(_ code: Code, _ message: String, keychainError: KeychainError? = nil, sqlState: String? = nil) {
        self.code = code
        self.message = message
        self.keychainError = keychainError
        self.sqlState = sqlState
    }

    /// The keychain's error, wrapped.
    init(_ error: KeychainError) {
        self.init(.keychain, error.message, keychainError: error)
    }

    /// A tampering finding.
    static func tampered(_ what: String) -> SyncError {
        SyncError(.tampered, "The sync server returned \(what). Nothing from this exchange was applied; the server (or someone with access to its database) may be tampering with the circle. Check `keychain sync status` on another device.")
    }

    /// The message, prefixed with the code.
    public var description: String { "\(code.rawValue): \(message)" }
}
