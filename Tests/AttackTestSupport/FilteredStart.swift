import CPseudoTerminal
import Foundation
import XCTest

/// Starts a process from a thread of its own whose seccomp filter answers keyctl and add_key with
/// EPERM, as Docker's default profile does: the child inherits the filter, so it runs as in a
/// container where the kernel keyring is blocked.
public final class FilteredStart: @unchecked Sendable {
    private let process: Process
    private var failure: Error?

    /// A start of `process`, not yet run.
    public init(_ process: Process) { self.process = process }

    /// Runs the process with the filter; a skip when seccomp filters cannot be installed here.
    public func run() throws {
        let done = DispatchSemaphore(value: 0)  // a completion signal, not a lock
        Thread.detachNewThread { [self] in
            if keyring_seccomp_refuse_on_this_thread() != 0 {
                failure = XCTSkip("seccomp filters cannot be installed here")
            } else {
                do { try process.run() } catch { failure = error }
            }
            done.signal()
        }
        done.wait()
        if let failure { throw failure }
    }
}
