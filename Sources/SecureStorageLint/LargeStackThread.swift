import Foundation

/// Threads that parse and walk syntax trees, which both recurse as deep as the file nests.
package enum LargeStackThread {
    /// The stack of each: 1 GiB, reserved and touched only as deep as a file goes, so that a
    /// 16 MiB file of one long chain (`a.b.b.b…`) cannot overflow it.
    package static let stackSize = 1 << 30

    /// Runs `body` on a new thread with a ``stackSize`` stack.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.stackSize = stackSize
        thread.start()
    }
}
