import Foundation
import KeychainCore
import Logging
import ServiceLifecycle

/// Keeps a keychain in sync while it runs, as a swift-service-lifecycle `Service`: a round after
/// every local write (any process's: it watches the keychain's directory), at once when another
/// device pushes (PostgreSQL `LISTEN`/`NOTIFY`), and every `pollInterval` in case a notification
/// was missed. While the server is unreachable it retries after 1, 2, 4, … seconds, up to five
/// minutes; local writes meanwhile wait in the keychain and are pushed once it is back. Rounds
/// started by writes or notifications start at least a second apart (a storm of them costs a
/// round a second), and a lost `LISTEN` connection is made again with the same backoff, one
/// round catching up each time.
///
/// Its first round, and one every `verificationInterval` (a day by default) after that, checks
/// every record (``KeychainSynchronizer/syncNow(verifyingEverything:)``), so a record the server
/// dropped after this device had it is reported as ``SyncError/Code/tampered`` within a day.
/// Deletions every member merged are compacted once a day. Every outcome goes to `onEvent`
/// (``SyncServiceEvent``), and failures are logged too: none is swallowed.
///
/// ```swift
/// let sync = SyncService(synchronizer: KeychainSynchronizer(keychain: keychain), logger: logger)
/// let group = ServiceGroup(services: [server, sync], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// ```
///
/// `run()` returns when its task is cancelled or the group shuts down gracefully, after the
/// round in progress (at most one) finishes; a statement the server does not answer fails after
/// 30 seconds, so a silent server cannot hold it. The decisions are those of a state machine tested on its own.
public struct SyncService: Service {
    private let synchronizer: KeychainSynchronizer
    private let pollInterval: Duration
    private let verificationInterval: Duration
    private let logger: Logger
    private let onEvent: @Sendable (SyncServiceEvent) -> Void

    /// A service that syncs `synchronizer`'s keychain while it runs.
    /// - Parameters:
    ///   - synchronizer: the keychain and circle to keep in sync.
    ///   - pollInterval: how often to sync when nothing announced a change.
    ///   - verificationInterval: how often a round checks every record, so that a record the
    ///     server dropped is noticed (the first round always does).
    ///   - logger: where failures are logged (warnings) and rounds (debug); never secret data.
    ///   - onEvent: called after every round and compaction with its outcome, on the service's task.
    public init(
        synchronizer: KeychainSynchronizer, pollInterval: Duration = .seconds(60),
        verificationInterval: Duration = .seconds(24 * 3600),
        logger: Logger = Logger(label: "KeychainSync.SyncService"),
        onEvent: @escaping @Sendable (SyncServiceEvent) -> Void = { _ in }
    ) {
        self.synchronizer = synchronizer
        self.pollInterval = pollInterval
        self.verificationInterval = verificationInterval
        self.logger = logger
        self.onEvent = onEvent
    }

    /// Syncs until the task is cancelled or a graceful shutdown of the service group.
    public func run() async {
        await cancelWhenGracefulShutdown { await self.runUntilCancelled() }
    }

    /// Syncs until the task is cancelled; the round in progress finishes first.
    func runUntilCancelled() async {
        let (wakeUps, wake) = AsyncStream.makeStream(of: SyncWakeUp.self, bufferingPolicy: .bufferingNewest(64))
        let location = synchronizer.keychain.location
        let watcher = KeychainDirectoryWatcher(location) { wake.yield(.filesChanged) }
        var listener: SyncNotificationListener?
        defer {
            watcher.stop()
            listener?.stop()
            wake.finish()
        }
        let clock = ContinuousClock()
        let start = clock.now
        func elapsed() -> Duration { start.duration(to: clock.now) }
        var machine = BackgroundSyncStateMachine(pollInterval: pollInterval, verificationInterval: verificationInterval)
        var stamp = KeychainFileStamp(location)
        var wakeUp = wakeUps.makeAsyncIterator()
        var action = machine.handle(.tick, at: elapsed())
        while true {
            if Task.isCancelled { action = machine.handle(.stopRequested, at: elapsed()) }
            // Listening before a round starts, so that a push made while it runs wakes the next.
            if listener == nil, action != .finish, machine.mayListen(at: elapsed()) {
                switch await listen({ wake.yield($0) }) {
                case .success(let started):
                    listener = started
                    if started != nil { machine.listenerConnected(at: elapsed()) }
                case .failure:
                    machine.listenerLost(at: elapsed())  // retried after the listener's backoff
                }
            }
            switch action {
            case .finish, .awaitOutcome:
                return  // every outcome is fed back below, so only .finish reaches here
            case .sync(let verifying):
                // Taken before the round: a write made while it runs changes the files again.
                stamp = KeychainFileStamp(location)
                let outcome = await sync(verifyingEverything: verifying)
                if case .failure(let error) = outcome, error.code == .serverUnreachable || error.code == .serverRejected
                {
                    listener?.stop()
                    listener = nil
                }
                action = machine.handle(outcome.input, at: elapsed())
            case .compact:
                await compact()
                action = machine.handle(.compactionFinished, at: elapsed())
            case .wait(let deadline):
                let timer = Task {
                    do {
                        try await clock.sleep(until: start.advanced(by: deadline))
                        wake.yield(.deadline)
                    } catch {}  // cancelled: a wake-up came first
                }
                let reason = await wakeUp.next()
                timer.cancel()
                switch reason {
                case nil:
                    action = machine.handle(.stopRequested, at: elapsed())  // the task was cancelled
                case .filesChanged?:
                    let changed = KeychainFileStamp(location) != stamp
                    action = machine.handle(changed ? .changeNoticed : .tick, at: elapsed())
                case .serverNotified?:
                    action = machine.handle(.changeNoticed, at: elapsed())
                case .listenerLost?:
                    // Notifications may have been missed meanwhile: a round catches up once the
                    // listener may reconnect (with backoff, so a server dropping it at once
                    // cannot make the service reconnect and sync in a tight loop). A loss from
                    // a listener already stopped after a failed round is stale.
                    if listener != nil {
                        listener?.stop()
                        listener = nil
                        action = machine.handle(.listenerLost, at: elapsed())
                    } else {
                        action = machine.handle(.tick, at: elapsed())
                    }
                case .deadline?:
                    action = machine.handle(.tick, at: elapsed())
                }
            }
        }
    }

    /// Runs one round off the task's thread (it blocks on the server and the keychain), reports it.
    private func sync(verifyingEverything: Bool) async -> Result<SyncReport, SyncError> {
        let synchronizer = self.synchronizer
        let outcome = await Self.blocking { () throws(SyncError) in
            try synchronizer.syncNow(verifyingEverything: verifyingEverything)
        }
        switch outcome {
        case .success(let report):
            logger.debug(
                "Synced",
                metadata: ["applied": "\(report.applied)", "pushed": "\(report.pushed)", "counter": "\(report.counter)"]
            )
            onEvent(.synced(report))
        case .failure(let error):
            logger.warning("Sync failed", metadata: ["code": "\(error.code)", "error": "\(error.message)"])
            onEvent(.syncFailed(error))
        }
        return outcome
    }

    /// Compacts the deletions every member merged off the task's thread, and reports the outcome.
    private func compact() async {
        let synchronizer = self.synchronizer
        switch await Self.blocking({ () throws(SyncError) in try synchronizer.compactDeletionsAfterSync() }) {
        case .success(let removed):
            logger.debug("Compacted deletions", metadata: ["removed": "\(removed)"])
            onEvent(.compacted(removed))
        case .failure(let error):
            logger.warning(
                "Compacting deletions failed", metadata: ["code": "\(error.code)", "error": "\(error.message)"])
            onEvent(.compactionFailed(error))
        }
    }

    /// Starts listening for the circle's notifications; `nil` outside a circle. A failure (the
    /// server cannot be reached or refuses `LISTEN`) is logged and reported
    /// (``SyncServiceEvent/listenFailed(_:)``); the caller retries after the listener's backoff.
    private func listen(
        _ onWakeUp: @escaping @Sendable (SyncWakeUp) -> Void
    ) async -> Result<SyncNotificationListener?, SyncError> {
        let keychain = synchronizer.keychain
        let outcome = await Self.blocking { () throws(SyncError) -> SyncNotificationListener? in
            guard let state = try SyncStateStore.loadHeader(from: keychain), state.isMember else { return nil }
            return try SyncNotificationListener(server: state.server, circleID: state.circleID, onWakeUp: onWakeUp)
        }
        if case .failure(let error) = outcome {
            logger.warning(
                "Listening for other devices' pushes failed",
                metadata: ["code": "\(error.code)", "error": "\(error.message)"])
            onEvent(.listenFailed(error))
        }
        return outcome
    }

    /// Runs `work`, which blocks, on a dispatch queue instead of the cooperative thread pool.
    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws(SyncError) -> T) async -> Result<
        T, SyncError
    > {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(SyncError) -> T in try work() })
            }
        }
    }
}

extension Result<SyncReport, SyncError> {
    /// The state machine's input for a round's outcome.
    fileprivate var input: BackgroundSyncStateMachine.Input {
        switch self {
        case .success(let report): .roundSucceeded(deferredWhileLocked: report.deferredWhileLocked)
        case .failure(let error): .roundFailed(error.code)
        }
    }
}
