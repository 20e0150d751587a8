/// What ``SyncService`` did: each round's report or error, and each daily compaction's outcome.
/// Failures are reported here and logged; none is swallowed.
public enum SyncServiceEvent: Sendable {
    /// A round finished.
    case synced(SyncReport)
    /// A round failed; the service retries (with backoff while the server cannot be reached).
    case syncFailed(SyncError)
    /// The daily compaction removed this many deletion records from the server.
    case compacted(Int)
    /// The daily compaction failed; the next one is tried a day later, and rounds go on.
    case compactionFailed(SyncError)
    /// Listening for other devices' pushes (`LISTEN`) failed; it is retried with backoff, and
    /// rounds go on (every poll interval, and once each time listening may be retried).
    case listenFailed(SyncError)
}
