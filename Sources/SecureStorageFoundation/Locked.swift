import Foundation

/// A value guarded by a lock, for state shared between threads: the one lock idiom of the
/// package (no raw `NSLock`, no `Mutex`, which needs macOS 15), used by the engine, the facade
/// (which on Apple platforms does not link the engine), sync and the tools. `package`, not public API.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Guards `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension Locked where Value == Void {
    /// A lock that guards no value, only a region of code (one caller in it at a time).
    package convenience init() { self.init(()) }

    /// Runs `body` while no other caller of this lock runs its own.
    package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
