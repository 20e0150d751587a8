#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import KeychainCore
import SecureStorageFoundation

extension SecItemEnvironment {
    /// **Linux only.** Runs `body` and returns its result with the error behind the last SecItem
    /// call in it that failed (`SecItemAdd`, `SecItemCopyMatching`, `SecItemUpdate`,
    /// `SecItemDelete`), or `nil` when none failed.
    ///
    /// An OSStatus says what kind of failure happened; the engine's `KeychainError` also says
    /// which file, which item and what to do. Only calls made by `body` on its own task or
    /// thread are recorded, so concurrent calls elsewhere never mix in:
    ///
    /// ```swift
    /// let (status, failure) = SecItemEnvironment.capturingFailure { SecItemAdd(query as CFDictionary, nil) }
    /// if status != errSecSuccess { print(failure?.message ?? "OSStatus \(status)") }
    /// ```
    ///
    /// The message never contains item data or passphrases.
    public static func capturingFailure<T>(_ body: () throws -> T) rethrows -> (result: T, failure: KeychainError?) {
        let recorder = SecItemFailureRecorder()
        let result = try SecItemFailureRecorder.$current.withValue(recorder) { try body() }
        return (result, recorder.failure)
    }
}

/// Where ``SecItemCall/run(_:_:)`` leaves the error of a failed call, for
/// ``SecItemEnvironment/capturingFailure(_:)``.
final class SecItemFailureRecorder: Sendable {
    /// The recorder of the calls made in this task, if one is capturing.
    @TaskLocal static var current: SecItemFailureRecorder?

    private let last = Locked<KeychainError?>(nil)

    /// The error of the last failed call.
    var failure: KeychainError? { last.withLock { $0 } }

    /// Records a failed call's error.
    func record(_ error: KeychainError) { last.withLock { $0 = error } }
}
#endif
