import Foundation

/// A connection to the sync server that `LISTEN`s for other devices' pushes to one circle and
/// reports them as soon as its socket is readable (a dispatch read source, no polling).
///
/// `@unchecked Sendable`: the connection is used only on the source's serial queue (and by
/// `init` before the source starts), as ``PostgresConnection`` requires.
final class SyncNotificationListener: @unchecked Sendable {
    private let source: any DispatchSourceRead
    private var connection: PostgresConnection?

    /// Connects to `server` and listens for pushes to `circleID`; `onWakeUp` gets
    /// ``SyncWakeUp/serverNotified`` for each batch of them and ``SyncWakeUp/listenerLost``
    /// once when the connection breaks (the listener then stops).
    /// - Throws: ``SyncError/Code/serverUnreachable`` when the server cannot be reached.
    init(server: String, circleID: UUID, onWakeUp: @escaping @Sendable (SyncWakeUp) -> Void) throws(SyncError) {
        let connection = try PostgresConnection(server)
        _ = try connection.execute("LISTEN \(SyncServer.channel)")
        self.connection = connection
        let circle = circleID.uuidString
        let queue = DispatchQueue(label: "KeychainSync.SyncNotificationListener")
        source = DispatchSource.makeReadSource(fileDescriptor: connection.socket, queue: queue)
        source.setEventHandler { [unowned self] in
            guard let connection = self.connection else { return }
            do {
                let payloads = try connection.notifications()
                if payloads.contains(where: { $0.caseInsensitiveCompare(circle) == .orderedSame }) {
                    onWakeUp(.serverNotified)
                }
            } catch {
                onWakeUp(.listenerLost)
                self.source.cancel()
            }
        }
        // The socket is closed only after the source let go of it.
        source.setCancelHandler { [self] in self.connection = nil }
        source.resume()
    }

    /// Stops listening and closes the connection.
    func stop() {
        source.cancel()
    }
}
