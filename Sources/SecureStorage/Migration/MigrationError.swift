import Foundation

/// Why a migration could not go on. Messages name the file and position, never a value.
///
/// Match on ``code`` (later versions may add codes, so a `switch` keeps a `default`); the
/// properties say where: ``file``, ``position``, ``key``, ``account``, ``service``.
///
/// ```swift
/// do {
///     try migration.run()
/// } catch where error.code == .conflict {
///     print("\(error.key ?? "") is already in the keychain with another value")
/// }
/// ```
public struct MigrationError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// What kind of failure a ``MigrationError`` is. Later versions may add codes.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, for example `"conflict"`.
        public let rawValue: String

        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code's name.
        public var description: String { rawValue }

        /// The source cannot be parsed; nothing was changed.
        public static let malformedSource = Code(rawValue: "malformedSource")
        /// The source's format is not one this library reads.
        public static let unsupportedSource = Code(rawValue: "unsupportedSource")
        /// A key named in the selection is not in the source, or cannot be migrated.
        public static let unknownKey = Code(rawValue: "unknownKey")
        /// The source file cannot be read or rewritten.
        public static let fileError = Code(rawValue: "fileError")
        /// A value read back from the keychain differs from the source.
        public static let verificationFailed = Code(rawValue: "verificationFailed")
        /// The keychain already holds a different value where a source value would go.
        public static let conflict = Code(rawValue: "conflict")
        /// An interrupted migration of the file to another service must be finished first.
        public static let interruptedMigrationPending = Code(rawValue: "interruptedMigrationPending")
        /// The target service is the one migrations keep their journal in.
        public static let reservedService = Code(rawValue: "reservedService")
        /// The keychain refused a write or read.
        public static let keychain = Code(rawValue: "keychain")
        /// A ``MigrationDestination`` other than the keychain refused a write or read.
        public static let destination = Code(rawValue: "destination")

        /// Matches any error that is a `MigrationError` with this code, whatever else it carries:
        /// `catch MigrationError.Code.malformedSource`, the pattern every error type of the package offers.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? MigrationError)?.code == pattern
        }
    }

    /// What kind of failure this is.
    public let code: Code
    /// The source file, when the failure concerns one.
    public let file: String?
    /// Where in the file (`line:column`, a key path, …), for ``Code/malformedSource``.
    public let position: String?
    /// The source key, for ``Code/unknownKey``, ``Code/verificationFailed`` and ``Code/conflict``.
    public let key: String?
    /// The keychain account, for ``Code/conflict``.
    public let account: String?
    /// The keychain service, for ``Code/interruptedMigrationPending`` and ``Code/reservedService``.
    public let service: String?
    /// Why, in words (never a value).
    public let reason: String?
    /// The keychain's error, for ``Code/keychain``.
    public let keychainError: SecureStorageError?

    private init(
        _ code: Code, file: String? = nil, position: String? = nil, key: String? = nil, account: String? = nil,
        service: String? = nil, reason: String? = nil, keychainError: SecureStorageError? = nil
    ) {
        self.code = code
        self.file = file
        self.position = position
        self.key = key
        self.account = account
        self.service = service
        self.reason = reason
        self.keychainError = keychainError
    }

    /// The source cannot be parsed; nothing was changed.
    public static func malformedSource(file: String, position: String, reason: String) -> MigrationError {
        MigrationError(.malformedSource, file: file, position: position, reason: reason)
    }

    /// The source's format is not one this library reads.
    public static func unsupportedSource(file: String, reason: String) -> MigrationError {
        MigrationError(.unsupportedSource, file: file, reason: reason)
    }

    /// A key named in the selection is not in the source, or has a type that cannot be migrated.
    public static func unknownKey(file: String, key: String, reason: String) -> MigrationError {
        MigrationError(.unknownKey, file: file, key: key, reason: reason)
    }

    /// The source file cannot be read or rewritten.
    public static func fileError(file: String, reason: String) -> MigrationError {
        MigrationError(.fileError, file: file, reason: reason)
    }

    /// A value read back from the keychain differs from the source; the source was left untouched.
    public static func verificationFailed(file: String, key: String) -> MigrationError {
        MigrationError(.verificationFailed, file: file, key: key)
    }

    /// The keychain already holds a different value where a source value would go.
    public static func conflict(file: String, key: String, account: String) -> MigrationError {
        MigrationError(.conflict, file: file, key: key, account: account)
    }

    /// An interrupted migration of this file to another service or access group must be finished first.
    public static func interruptedMigrationPending(file: String, service: String) -> MigrationError {
        MigrationError(.interruptedMigrationPending, file: file, service: service)
    }

    /// The target service is the one migrations keep their journal in.
    public static func reservedService(_ service: String) -> MigrationError {
        MigrationError(.reservedService, service: service)
    }

    /// The keychain refused a write or read; the source was left untouched.
    public static func keychain(_ error: SecureStorageError) -> MigrationError {
        MigrationError(.keychain, keychainError: error)
    }

    /// A ``MigrationDestination`` refused to store or read `key`; the source was left untouched.
    public static func destination(file: String, key: String, reason: String) -> MigrationError {
        MigrationError(.destination, file: file, key: key, reason: reason)
    }

    /// Matches any error against one of the errors above (`catch MigrationError.keychain(.locked)`).
    public static func ~= (pattern: MigrationError, error: any Error) -> Bool {
        (error as? MigrationError) == pattern
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// What went wrong and what to do.
    public var description: String {
        let file = file ?? "the source"
        let key = key ?? "the key"
        let reason = reason ?? "unknown reason"
        switch code {
        case .malformedSource:
            return
                "\(file):\(position ?? "?"): \(reason). Nothing was changed; fix the file or choose the right --format."
        case .unsupportedSource:
            return "\(file): \(reason). Nothing was changed."
        case .unknownKey:
            return "\(file): \(key): \(reason). Nothing was changed; check the key names."
        case .fileError:
            return "\(file): \(reason)."
        case .verificationFailed:
            return
                "\(file): the value of \(key) read back from the keychain (or the migration's destination) differs from the source. The source was left untouched; run the migration again, which stores it again."
        case .conflict:
            return
                "\(file): \(key) would go to the keychain account \(account ?? "?") (or that key of the migration's destination), which already holds a different value. Nothing was changed; choose another --service or destination, or remove that value first."
        case .interruptedMigrationPending:
            return
                "\(file): an interrupted migration of this file to service \(service ?? "?") is pending. Run it again with that service (and the same access group) to finish it."
        case .destination:
            return
                "\(file): the destination refused \(key): \(reason). The source was left untouched; fix the cause and run the migration again (it resumes)."
        case .reservedService:
            return
                "The service \(service ?? "?") holds the journal of migrations, so values cannot go there. Nothing was changed; choose another --service."
        default:
            return
                "The keychain refused the migration: \(keychainError.map(String.init(describing:)) ?? reason) The source was left untouched; fix the cause and run the migration again (it resumes)."
        }
    }
}
