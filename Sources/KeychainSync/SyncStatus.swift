import Foundation

/// A device's view of its sync circle.
public struct SyncStatus: Sendable, Hashable {
    /// A member of the circle.
    public struct Member: Sendable, Hashable {
        /// The device's id.
        public var deviceID: UUID
        /// The name it joined with.
        public var name: String
        /// When it joined.
        public var joined: Date
        /// Whether it is the device asking.
        public var isThisDevice: Bool
    }

    /// The code other devices join with; `nil` while this device waits for approval.
    public var circleCode: String?
    /// This device's id in the circle.
    public var deviceID: UUID
    /// This device's name.
    public var deviceName: String
    /// Whether this device holds the circle key (rather than waiting for approval).
    public var isMember: Bool
    /// The members, read from the server and authenticated with the circle key.
    public var members: [Member]
    /// The highest manifest counter this device verified: compare it across devices; one that
    /// shows less than another has verified is being shown an older state.
    public var verifiedCounter: Int64
    /// Items this device agrees with the circle on.
    public var syncedRecords: Int
    /// When this device last completed a sync.
    public var lastSync: Date?
    /// The circle key's generation (it grows when a device is removed).
    public var generation: UInt32
}
