import Crypto
import Foundation

/// The circle's membership, as the chain of signed ``RosterEvent``s from its founding says it is.
///
/// The rules every device checks, event by event, so all of them compute the same members:
/// - The chain starts with the founding, signed by the founder, and each event carries the hash
///   of the one before and its own position.
/// - Only a member may admit or remove, and its signature must verify with the key the roster
///   recorded when it was admitted. A device id is admitted once: a device that left or was
///   removed joins again under a new id.
/// - A removal ends the membership of the removed device and of every device admitted through
///   it (directly or through devices it admitted), except those the removal keeps, which are
///   henceforth vouched for by the remover. The remover itself stays even when it was admitted
///   through the removed device (a device can remove a stolen founder); it then stays vouched for
///   by a removed device, which ``SyncStatus`` shows. A device cannot remove itself. Each removal
///   moves the circle to the next key generation, and the roster a generation is sealed under
///   holds exactly as many removals as that generation's number.
/// - A device may leave. It still holds the key it had, so it stays listed as departed and can
///   be removed like a member (which replaces the key); the devices it admitted stay, still
///   vouched for by it, so removing it removes them too.
///
/// A device remembers how far it verified the roster (a ``Pin``) and refuses a roster that does
/// not continue it, so the server cannot rewrite membership history a device has seen.
struct Roster: Sendable {
    /// A current member.
    struct Member: Sendable, Hashable {
        /// The device's id.
        var deviceID: UUID
        /// The name it joined with.
        var name: String
        /// Its Ed25519 public key.
        var signingKey: Data
        /// Its X25519 public key (circle keys are wrapped to it).
        var agreementKey: Data
        /// The device that vouches for it: the one that admitted it, or the remover that kept it;
        /// `nil` for the founder.
        var approver: UUID?
        /// The device that admitted it (it signed the key this device first received); `nil` for the founder.
        var admittedBy: UUID?
        /// When it was admitted.
        var joined: Double
    }

    /// How far a device verified the roster: the number of events and the hash of the last.
    struct Pin: Sendable, Hashable {
        /// The number of events verified.
        var count: Int64
        /// The hash of the last of them.
        var head: Data
    }

    /// The circle.
    let circleID: UUID
    /// The events, in order.
    private(set) var events: [RosterEvent] = []
    /// The current members by id.
    private(set) var members: [UUID: Member] = [:]
    /// Devices that left and were not removed since: they may still hold a circle key.
    private(set) var departed: [UUID: Member] = [:]
    /// The signing key of every device ever admitted (to check what a removed device signed before).
    private(set) var signingKeys: [UUID: Data] = [:]
    /// The key generation the removals so far lead to.
    private(set) var generation: UInt32 = 0
    /// For each generation after 0, the member whose removal made it.
    private(set) var rotatedBy: [UInt32: UUID] = [:]
    /// The hash of the last event (zeros for an empty roster).
    private(set) var head = Data(count: 32)

    /// An empty roster of `circleID`, to which the founding is applied.
    init(circleID: UUID) {
        self.circleID = circleID
    }

    /// How far this roster goes.
    var pin: Pin { Pin(count: Int64(events.count), head: head) }

    /// ``SyncStatus/rosterFingerprint``: the number of events and 48 bits of the last one's hash.
    var fingerprint: String {
        "\(events.count)-" + head.prefix(6).map { String(format: "%02x", $0) }.joined()
    }

    /// Checks `events` from the founding and returns the roster they make.
    /// - Parameter pinned: what the device verified before; the events must continue it.
    /// - Throws: ``SyncError/Code/tampered`` for an event that breaks a rule or a roster that
    ///   does not continue `pinned`.
    static func verify(_ events: [RosterEvent], circleID: UUID, continuing pinned: Pin?) throws(SyncError) -> Roster {
        var roster = Roster(circleID: circleID)
        for event in events {
            try roster.apply(event)
            if let pinned, roster.events.count == pinned.count, roster.head != pinned.head {
                throw SyncError.tampered(
                    "a membership history that differs from the one this device verified before (the server showed devices different histories)"
                )
            }
        }
        if let pinned, Int64(events.count) < pinned.count {
            throw SyncError.tampered("a shorter membership history than this device verified before (a rollback)")
        }
        return roster
    }

    /// The next event, unsigned: it follows the last one.
    func nextEvent(_ kind: RosterEvent.Kind, author: UUID, subject: UUID) -> RosterEvent {
        RosterEvent(
            kind: kind, position: Int64(events.count), previousHash: head, time: Date().timeIntervalSince1970,
            author: author, subject: subject)
    }

    /// The devices admitted through `device`, directly or through others (members and departed
    /// devices alike), and `device` itself.
    func admittedThrough(_ device: UUID) -> Set<UUID> {
        var found: Set<UUID> = [device]
        var changed = true
        while changed {
            changed = false
            for member in Array(members.values) + Array(departed.values) where !found.contains(member.deviceID) {
                if let approver = member.approver, found.contains(approver) {
                    found.insert(member.deviceID)
                    changed = true
                }
            }
        }
        return found
    }

    /// The devices a removal of `device` by `author` that keeps `kept` ends: `device` and every
    /// device admitted through it, except the kept ones, the author, and those admitted through them.
    func removedBy(removing device: UUID, keeping kept: [UUID], author: UUID) -> Set<UUID> {
        var removed = admittedThrough(device)
        for keeper in kept + [author] where keeper != device && removed.contains(keeper) {
            removed.subtract(admittedThrough(keeper))
        }
        return removed
    }

    /// Checks one event against the roster so far and applies it.
    mutating func apply(_ event: RosterEvent) throws(SyncError) {
        func refuse(_ what: String) -> SyncError { SyncError.tampered("a membership change that \(what)") }
        guard event.position == Int64(events.count), event.previousHash == head else {
            throw refuse("is out of place in the chain (wrong position or previous hash)")
        }
        if events.isEmpty {
            guard event.kind == .founded, event.author == event.subject, event.signingKey.count == 32,
                event.agreementKey.count == 32,
                event.isSigned(by: event.signingKey, circleID: circleID)
            else {
                throw refuse("should be the circle's founding and is not, or is not signed by the founder")
            }
            admit(event, approver: nil)
        } else {
            guard let author = members[event.author], event.isSigned(by: author.signingKey, circleID: circleID) else {
                throw refuse("is not signed by a current member")
            }
            switch event.kind {
            case .founded:
                throw refuse("founds the circle a second time")
            case .admitted:
                guard signingKeys[event.subject] == nil, event.signingKey.count == 32, event.agreementKey.count == 32,
                    (try? Curve25519.Signing.PublicKey(rawRepresentation: event.signingKey)) != nil,
                    (try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: event.agreementKey)) != nil
                else {
                    throw refuse("admits a device id seen before, or invalid keys")
                }
                admit(event, approver: event.author)
            case .removed:
                let through = admittedThrough(event.subject)
                guard members[event.subject] != nil || departed[event.subject] != nil, event.subject != event.author,
                    event.newGeneration == generation + 1, Set(event.kept).count == event.kept.count,
                    event.kept.allSatisfy({ $0 != event.subject && through.contains($0) && members[$0] != nil })
                else {
                    throw refuse(
                        "removes a device that is neither a member nor departed, or itself, keeps a device not admitted through it, or skips a key generation"
                    )
                }
                for device in removedBy(removing: event.subject, keeping: event.kept, author: event.author) {
                    members[device] = nil
                    departed[device] = nil
                }
                for device in event.kept { members[device]?.approver = event.author }
                generation = event.newGeneration
                rotatedBy[generation] = event.author
            case .left:
                guard event.subject == event.author, let leaving = members[event.subject] else {
                    throw refuse("makes another device leave")
                }
                members[event.subject] = nil
                departed[event.subject] = leaving
            }
        }
        events.append(event)
        head = event.hash(circleID: circleID)
    }

    private mutating func admit(_ event: RosterEvent, approver: UUID?) {
        members[event.subject] = Member(
            deviceID: event.subject, name: event.name, signingKey: event.signingKey, agreementKey: event.agreementKey,
            approver: approver, admittedBy: approver, joined: event.time)
        signingKeys[event.subject] = event.signingKey
    }
}
