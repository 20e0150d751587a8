#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import Logging

/// Runs SecItem operations and turns their errors into OSStatus codes.
enum SecItemCall {
    private static var logger: Logger { LibraryLogging.logger(component: "KeychainServices") }

    /// Runs `body`; a ``KeychainError`` becomes its OSStatus, its message is logged at debug
    /// level (messages never contain secrets) and kept for ``SecItemEnvironment/capturingFailure(_:)``.
    static func run(_ operation: String, _ body: () throws(KeychainError) -> Void) -> OSStatus {
        do {
            try body()
            return errSecSuccess
        } catch {
            logger.debug("\(operation) failed", metadata: ["status": "\(error.osStatus)", "reason": "\(error.message)"])
            SecItemFailureRecorder.current?.record(error)
            return error.osStatus
        }
    }

    /// A `CFError` in `NSOSStatusErrorDomain`, as Apple's APIs hand out.
    static func cfError(_ status: OSStatus, _ reason: String) -> CFError {
        NSError(domain: NSOSStatusErrorDomain, code: Int(status), userInfo: [NSLocalizedDescriptionKey: reason])
    }
}
#endif
