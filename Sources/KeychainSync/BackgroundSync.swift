#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KeychainCore
import LockedState

/// Keeps a keychain in sync while it runs: a sync after every local write (any process's: it
/// watches the keychain's files), at once when another device pushes (PostgreSQL
/// `LISTEN`/`NOTIFY`), and every `pollInterval` in case a notification was missed. While the
/// server is unreachable it retries with exponential backoff, from one second up to five
/// minutes; local writes meanwhile wait in the keychain and are pushed once it is back.
///
/// Its first sync, and one every `verificationInterval` (a day by default) after that, checks
/// every record (``KeychainSynchronizer/syncNow(verifyingEverything:)``), so a record the server
/// dropped after this device had it is reported as ``SyncError/Code/tampered`` within a day;
/// the syncs between them check what changed. Deletions every member merged are compacted
/// once a day too.
///
/// ```swift
/// let background = KeychainSynchronizer(keychain: keychain).startInBackground { event in
///     if case .failure(let error) = event { logger.warning("sync: \(error)") }
/// }
/// …
/// background.stop()
/// ```
public final class BackgroundSync: Sendable {
    /// What one background sync did.
    public typealias Event = Result<SyncReport, SyncError>

    private let synchronizer: KeychainSynchronizer
    private let pollInterval: Duration
    private let verificationInterval: Duration
    private let onEvent: @Sendable (Event) -> Void
    private let stopped = Locked(false)
    private let finished = DispatchSemaphore(value: 0)

    init(_ synchronizer: KeychainSynchronizer, pollInterval: Duration, verificationInterval: Duration, onEvent: @escaping @Sendable (Event) -> Void) {
        self.synchronizer = synchronizer
        self.pollInterval = pollInterval
        self.verificationInterval = verificationInterval
        self.onEvent = onEvent
        let thread = Thread { [self] in
            loop()
            finished.signal()
        }
        thread.name = "KeychainSync background"
        thread.start()
    }

    /// Stops syncing and waits for a sync in progress to finish (at most one round).
    public func stop() {
        let alreadyStopped = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        if !alreadyStopped { finished.wait() }
    }

    private var isStopped: Bool { stopped.withLock { $0 } }

    private func loop() {
        var listener: PostgresConnection?
        var circle = ""
        var backoff: Double = 1
        var retryAt = Date.distantPast
        var due = true   // the first sync happens at once
        var nextPoll = Date()
        var nextCompaction = Date()
        var nextVerification = Date()   // the first sync checks every record
        var stamp = KeychainFileStamp(synchronizer.keychain.location)
        while !isStopped {
            if listener == nil && Date() >= retryAt, let state = try? SyncStateStore.load(from: synchronizer.keychain), state.isMember {
                listener = try? PostgresConnection(state.server)
                circle = state.circleID.uuidString
                do {
                    try listener?.execute("LISTEN \(SyncServer.channel)")
                } catch {
                    listener = nil
                }
            }
            if let connection = listener {
                do {
                    if try wait(on: connection, milliseconds: 250) {
                        due = try connection.notifications().contains { $0.caseInsensitiveCompare(circle) == .orderedSame } || due
                    }
                } catch {
                    listener = nil
                }
            } else {
                usleep(250_000)
            }
            let current = KeychainFileStamp(synchronizer.keychain.location)
            if current != stamp { due = true }
            if Date() >= nextPoll { due = true }
            guard due, Date() >= retryAt, !isStopped else { continue }
            // Taken before the sync: a write made while it runs changes the files again.
            stamp = current
            do {
                let verifying = Date() >= nextVerification
                let report = try synchronizer.syncNow(verifyingEverything: verifying)
                if verifying { nextVerification = Date().addingTimeInterval(Self.seconds(verificationInterval)) }
                onEvent(.success(report))
                if Date() >= nextCompaction, report.deferredWhileLocked == 0 {
                    nextCompaction = Date().addingTimeInterval(24 * 3600)
                    _ = try? synchronizer.compactDeletionsAfterSync()
                }
                backoff = 1
                retryAt = .distantPast
            } catch {
                onEvent(.failure(error))
                if error.code == .serverUnreachable || error.code == .serverRejected {
                    retryAt = Date().addingTimeInterval(backoff)
                    backoff = min(backoff * 2, 300)
                    listener = nil
                } else if error.code == .tampered || error.code == .removed || error.code == .notAMember {
                    retryAt = Date().addingTimeInterval(300)   // not healed by retrying soon
                }
            }
            due = false
            nextPoll = Date().addingTimeInterval(Self.seconds(pollInterval))
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Waits until the connection's socket is readable; `false` on timeout.
    private func wait(on connection: PostgresConnection, milliseconds: Int32) throws(SyncError) -> Bool {
        var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready < 0 && errno != EINTR { throw SyncError.waitingForServerFailed }
        return ready > 0
    }
}

/// The sizes and modification times of a keychain's database and write-ahead log: any write,
/// by any process, changes them.
struct KeychainFileStamp: Equatable {
    private var parts: [Int64] = []

    init(_ location: KeychainLocation) {
        for path in [location.databaseURL.path, location.databaseURL.path + "-wal"] {
            var info = stat()
            if stat(path, &info) == 0 {
                parts += [Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec), Int64(info.st_ino)]
            } else {
                parts += [-1]
            }
        }
    }
}

extension KeychainSynchronizer {
    /// Starts syncing in the background (``BackgroundSync``) until ``BackgroundSync/stop()``.
    ///
    /// - Parameters:
    ///   - pollInterval: how often to sync when nothing announced a change.
    ///   - verificationInterval: how often a sync checks every record, so that a record the
    ///     server dropped is noticed (the first sync always does).
    ///   - onEvent: called after every sync, on the background thread, with its report or error.
    public func startInBackground(pollInterval: Duration = .seconds(60), verificationInterval: Duration = .seconds(24 * 3600),
                                  onEvent: @escaping @Sendable (BackgroundSync.Event) -> Void = { _ in }) -> BackgroundSync {
        BackgroundSync(self, pollInterval: pollInterval, verificationInterval: verificationInterval, onEvent: onEvent)
    }
}
