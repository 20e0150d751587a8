import Foundation
import KeychainCore

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
        /// The device that vouches for it (that admitted it, or kept it when removing the one
        /// that did); `nil` for the circle's founder. Removing a device also removes the devices
        /// it vouches for, unless the removal keeps them. When this names neither a member nor a
        /// departed device, the device that vouched for it was removed, by this device or one
        /// admitted through it: check that it is one of yours.
        public var approvedBy: UUID?

        /// A member as a roster records it.
        init(_ member: Roster.Member, thisDevice: UUID) {
            deviceID = member.deviceID
            name = PrintableText.sanitized(member.name, limit: 64)
            joined = Date(timeIntervalSince1970: member.joined)
            isThisDevice = member.deviceID == thisDevice
            approvedBy = member.approver
        }

        /// `members` in the order they joined.
        static func list(_ members: some Sequence<Roster.Member>, thisDevice: UUID) -> [Member] {
            members.sorted { ($0.joined, $0.deviceID.uuidString) < ($1.joined, $1.deviceID.uuidString) }
                .map { Member($0, thisDevice: thisDevice) }
        }
    }

    /// The code other devices join with; `nil` while this device waits for approval.
    public var circleCode: String?
    /// This device's id in the circle.
    public var deviceID: UUID
    /// This device's name.
    public var deviceName: String
    /// Whether this device holds the circle key (rather than waiting for approval).
    public var isMember: Bool
    /// The members, from the circle's roster: every admission and removal in it is signed by a
    /// member and chained to the one before, and checked from the circle's founding.
    public var members: [Member]
    /// Devices that left the circle and were not removed since: each still knew the circle key
    /// when it left, so remove one you do not trust to have forgotten it (and the devices it
    /// approved, which are still among ``members``).
    public var departed: [Member] = []
    /// A short fingerprint of the membership history this device verified (its length and the
    /// start of its last event's hash): compare it across devices after a membership change;
    /// members shown the same history show the same fingerprint (one that has not synced since
    /// shows a shorter one), and two different fingerprints of the same length mean the server
    /// showed devices different histories.
    public var rosterFingerprint = ""
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
