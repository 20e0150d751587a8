import KeychainCore

/// The one error type of KeychainSync: what went wrong and a message that says what to do.
///
/// Messages never contain secret data: no item data or attributes, no keys, no server password.
///
/// ```swift
/// do {
///     try synchronizer.syncNow()
/// } catch SyncError.Code.serverUnreachable {
///     // offline: local writes stay queued in the keychain and are pushed by a later sync
/// }
/// ```
///
/// Later versions may add codes (``Code``), so a `switch` over ``code`` keeps a `default`.
public struct SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure: the part of a ``SyncError`` to match on. Later versions may add
    /// codes, so a `switch` over one keeps a `default`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, for example `"serverUnreachable"`.
        public let rawValue: String

        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code's name.
        public var description: String { rawValue }

        /// Matches any error by its code, so that `catch SyncError.Code.serverUnreachable` works
        /// in a `do` block whose calls throw other errors too (`catch let error as SyncError
        /// where error.code == .serverUnreachable` says the same at more length).
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? SyncError)?.code == pattern
        }

        /// The server could not be reached or dropped the connection; nothing was lost and a
        /// later sync retries.
        public static let serverUnreachable = Code(rawValue: "serverUnreachable")
        /// The server refused a statement (a missing table, no permission, a full disk).
        public static let serverRejected = Code(rawValue: "serverRejected")
        /// What the server returned fails authentication: a record or the circle's manifest was
        /// altered, swapped, replayed from an older state or dropped. Nothing was applied.
        public static let tampered = Code(rawValue: "tampered")
        /// This keychain belongs to no sync circle, or to another one than the request names.
        public static let notAMember = Code(rawValue: "notAMember")
        /// A code typed for joining or approving does not match: mistyped, expired, or not for
        /// this circle.
        public static let invalidCode = Code(rawValue: "invalidCode")
        /// The device was removed from the circle: it no longer holds the current circle key.
        public static let removed = Code(rawValue: "removed")
        /// A request that does not fit the circle's state (joining twice, approving nothing).
        public static let invalidState = Code(rawValue: "invalidState")
        /// The local keychain failed; ``SyncError/keychainError`` says how.
        public static let keychain = Code(rawValue: "keychain")
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

    /// The message, prefixed with the code.
    public var description: String { "\(code.rawValue): \(message)" }
}
