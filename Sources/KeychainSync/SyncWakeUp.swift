/// Why ``SyncService`` woke up from a wait.
enum SyncWakeUp: Sendable, Equatable {
    /// Something in the keychain's directory changed (the service compares the files' stamps).
    case filesChanged
    /// Another device announced a push to this circle (PostgreSQL `NOTIFY`).
    case serverNotified
    /// The connection that listens for notifications broke; some may have been missed.
    case listenerLost
    /// The deadline the service waited for passed.
    case deadline
}
