import Foundation
import SecureStorageFoundation

/// The unlock session's ticket in the agent's own memory: in the agent process, the place
/// ``UnlockTicketStore`` keeps the ticket (``UnlockTicketStore/held(_:)``), from which the agent
/// hands it to verified clients. Nothing is written to a file or the kernel keyring, so the agent
/// works where neither exists; the ticket dies with the agent.
package final class AgentTicketHolder: Sendable {
    private let ticket = Locked<Data?>(nil)

    /// The holders of the keychains this process is the agent of, by vault id.
    private static let hosted = Locked<[UUID: AgentTicketHolder]>([:])

    /// An empty holder, not yet hosting anything.
    init() {}

    /// Makes this process the keeper of `vaultID`'s tickets (the agent calls it before it unlocks).
    static func host(_ vaultID: UUID) -> AgentTicketHolder {
        hosted.withLock { hosted in
            if let holder = hosted[vaultID] { return holder }
            let holder = AgentTicketHolder()
            hosted[vaultID] = holder
            return holder
        }
    }

    /// Stops keeping `vaultID`'s tickets here (the agent is shutting down), wiping the ticket.
    static func stopHosting(_ vaultID: UUID) {
        hosted.withLock { $0.removeValue(forKey: vaultID) }?.replace(with: nil)
    }

    /// The holder of `vaultID` when this process hosts it.
    static func hosting(_ vaultID: UUID) -> AgentTicketHolder? { hosted.withLock { $0[vaultID] } }

    /// The ticket's bytes, if any.
    var bytes: Data? { ticket.withLock { $0 } }

    /// Replaces the ticket.
    func replace(with bytes: Data?) {
        ticket.withLock { $0 = bytes }
    }

    /// Removes the ticket when it still holds `bytes`.
    func remove(ifItHolds bytes: Data) {
        ticket.withLock { current in
            if current == bytes { current = nil }
        }
    }
}
