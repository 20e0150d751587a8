#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import Logging

/// Why a SecKey call failed: the OSStatus Apple reports in the same situation and a message
/// saying what to do. Messages never contain key material, shared secrets or plaintext.
struct SecKeyFailure: Error {
    let status: OSStatus
    let message: String

    init(_ status: OSStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The engine's error with its OSStatus.
    init(_ error: KeychainError) {
        self.init(error.osStatus, error.message)
    }
}

/// Runs SecKey calls the way Apple's functions behave: a result, or `nil` (or `false`) with a
/// `CFError` in `NSOSStatusErrorDomain` stored in the caller's `error` pointer.
enum SecKeyCall {
    private static var logger: Logger { LibraryLogging.logger(component: "KeychainServices") }

    /// An out-parameter of Apple's SecKey functions.
    typealias ErrorPointer = UnsafeMutablePointer<Unmanaged<CFError>?>?

    /// Runs `body`; on failure stores the error (retained, as Apple's functions hand it out)
    /// and returns `nil`. The error pointer is left alone on success.
    static func run<T>(_ function: String, _ errorPointer: ErrorPointer, _ body: () throws(SecKeyFailure) -> T) -> T? {
        do {
            return try body()
        } catch {
            logger.debug("\(function) failed", metadata: ["status": "\(error.status)", "reason": "\(error.message)"])
            errorPointer?.pointee = Unmanaged.passRetained(SecItemCall.cfError(error.status, error.message))
            return nil
        }
    }

    /// Runs engine code, turning its ``KeychainError`` into a ``SecKeyFailure``.
    static func engine<T>(_ body: () throws(KeychainError) -> T) throws(SecKeyFailure) -> T {
        do {
            return try body()
        } catch {
            throw SecKeyFailure(error)
        }
    }
}
#endif
