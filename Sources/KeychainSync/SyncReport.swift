/// What one sync did, in counts (never names).
public struct SyncReport: Sendable, Hashable {
    /// Records received from the server that were new to this device.
    public var received = 0
    /// Changes written to this keychain (items added, replaced or deleted).
    public var applied = 0
    /// Records this device pushed (values and deletions).
    public var pushed = 0
    /// Conflicts decided (both sides changed the same item).
    public var conflicts = 0
    /// Items this device held as a value the circle had deleted (an old copy restored from a
    /// backup, say), taken as that deletion: removed here instead of pushed back to the circle.
    /// Edit such an item (any update moves its modification date) to bring it back on purpose.
    public var revokedCopiesRemoved = 0
    /// Received changes left for later because their class is locked here.
    public var deferredWhileLocked = 0
    /// Synchronizable items that do not sync because their data needs the user.
    public var protectedItemsNotSynced = 0
    /// The circle's manifest counter after the sync.
    public var counter: Int64 = 0
    /// Pushes that had to start over because another device pushed first.
    public var retries = 0
    /// Items this sync read (opened) from the keychain: every synchronizable item the first time
    /// in a process, then only those changed since (0 when nothing wrote to the keychain).
    public var itemsRead = 0

    /// An empty report.
    public init() {}
}
