import Dispatch

/// Runs a blocking call — a keychain read or write, which may wait for a lock, a disk or the
/// scrypt of a passphrase — on a global queue and resumes the caller with its result, so that an
/// `async` caller's executor (the main actor, a cooperative thread) is never blocked by it. The
/// one way the engine, the facade and the configuration provider leave the caller's executor.
///
/// - Parameters:
///   - cancellation: the error for a task cancelled before the call starts; then nothing is
///     run, so nothing is read or changed. A call that started finishes, so a write is never
///     abandoned halfway.
///   - body: the blocking call.
package func offloaded<T: Sendable, Failure: Error>(
    cancellation: @autoclosure () -> Failure, _ body: @escaping @Sendable () throws(Failure) -> T
) async throws(Failure) -> T {
    if Task.isCancelled { throw cancellation() }
    let result: Result<T, Failure> = await offloaded { Result { () throws(Failure) in try body() } }
    return try result.get()
}

/// Runs a blocking call that cannot fail on a global queue and resumes the caller with its
/// result (see ``offloaded(cancellation:_:)``); it runs even when the task was cancelled.
package func offloaded<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: body()) }
    }
}
