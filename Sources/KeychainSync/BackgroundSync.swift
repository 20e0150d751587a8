import Foundation
import KeychainCore
import Logging
import SecureStorageFoundation

/// Keeps a keychain in sync while it runs, for code without an async context or a service
/// group: ``SyncService`` on a task of its own, with the same schedule — a sync after every
/// local write (any process's: it watches the keychain's files), at once when another device
/// pushes (PostgreSQL `LISTEN`/`NOTIFY`), and every `pollInterval` in case a notification was
/// missed. While the server is unreachable it retries with exponential backoff, from one second
/// up to five minutes; local writes meanwhile wait in the keychain and are pushed once it is back.
///
/// Its first sync, and one every `verificationInterval` (a day by default) after that, checks
/// every record (``KeychainSynchronizer/syncNow(verifyingEverything:)``), so a record the server
/// dropped after this device had it is reported as ``SyncError/Code/tampered`` within a day;
/// the syncs between them check what changed. Deletions every member merged are compacted
/// once a day too, and a compaction that fails is reported as a failure.
///
/// ```swift
/// let background = KeychainSynchronizer(keychain: keychain).startInBackground { event in
///     if case .failure(let error) = event { logger.warning("sync: \(error)") }
/// }
/// …
/// background.stop()
/// ```
public final class BackgroundSync: Sendable {
    /// What one background sync (or daily compaction) did.
    public typealias Event = Result<SyncReport, SyncError>

    private let task: Task<Void, Never>
    private let finished: DispatchSemaphore

    init(
        _ synchronizer: KeychainSynchronizer, pollInterval: Duration, verificationInterval: Duration,
        onEvent: @escaping @Sendable (Event) -> Void
    ) {
        // The events carry every outcome to the caller, who logs them as it sees fit.
        let service = SyncService(
            synchronizer: synchronizer, pollInterval: pollInterval, verificationInterval: verificationInterval,
            logger: Logger(label: "KeychainSync.BackgroundSync", factory: { _ in SwiftLogNoOpLogHandler() })
        ) { event in
            switch event {
            case .synced(let report): onEvent(.success(report))
            case .syncFailed(let error), .compactionFailed(let error): onEvent(.failure(error))
            // A failed LISTEN is retried with backoff and followed by a round, which reports
            // the server's failure when it cannot be reached; only rounds reach `onEvent`.
            case .compacted, .listenFailed: break
            }
        }
        let finished = DispatchSemaphore(value: 0)
        self.finished = finished
        task = Task.detached {
            await service.runUntilCancelled()
            finished.signal()
        }
    }

    /// Stops syncing and waits for a sync in progress to finish (at most one round).
    public func stop() {
        task.cancel()
        finished.wait()
        finished.signal()  // for the next caller of stop()
    }
}

extension KeychainSynchronizer {
    /// Starts syncing in the background (``BackgroundSync``) until ``BackgroundSync/stop()``.
    /// In async code, run a ``SyncService`` instead.
    ///
    /// - Parameters:
    ///   - pollInterval: how often to sync when nothing announced a change.
    ///   - verificationInterval: how often a sync checks every record, so that a record the
    ///     server dropped is noticed (the first sync always does).
    ///   - onEvent: called after every sync, on the background task, with its report or error,
    ///     and with the error of a daily compaction that failed.
    public func startInBackground(
        pollInterval: Duration = .seconds(60), verificationInterval: Duration = .seconds(24 * 3600),
        onEvent: @escaping @Sendable (BackgroundSync.Event) -> Void = { _ in }
    ) -> BackgroundSync {
        BackgroundSync(self, pollInterval: pollInterval, verificationInterval: verificationInterval, onEvent: onEvent)
    }
}
