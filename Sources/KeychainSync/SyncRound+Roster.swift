import Foundation
import KeychainCore

// Part of the pull: the roster must continue what this device verified, and still list it.
extension SyncRound {
    /// Checks the roster events from the last one this device verified on: usually just that
    /// one, unchanged. When members were admitted or left, the whole roster is read and checked
    /// again, and the device moves its pin forward.
    /// - Throws: ``SyncError/Code/tampered`` for a roster that does not continue what this device
    ///   verified; ``SyncError/Code/removed`` when the roster no longer lists this device.
    mutating func checkRoster(_ tail: [(position: Int64, body: Data)], key: CircleKey) throws(SyncError) {
        let pin = state.rosterPin
        if tail.count == 1, pin.count > 0, tail[0].position == pin.count - 1,
            try RosterEvent.open(tail[0].body, position: tail[0].position, key: key).hash(circleID: state.circleID)
                == pin.head
        {
            return
        }
        let roster = try server.roster(key: key, continuing: pin)
        guard roster.members[state.deviceID] != nil, roster.generation == key.generation else {
            throw SyncError.droppedFromRoster
        }
        rosterMoved = rosterMoved || roster.pin != pin
        state.rosterPin = roster.pin
    }
}
