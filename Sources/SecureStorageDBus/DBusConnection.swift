import Foundation
import SecureStorageFoundation

/// A connection to a message bus: authenticated with EXTERNAL, registered with `Hello`, then
/// calls, replies, signals and method calls served by a handler.
///
/// One dedicated thread reads the socket (a blocking read never occupies the Swift concurrency
/// pool); writes are serialized by a lock and always complete or close the connection. Message
/// bodies are never logged or put in errors. Call ``close()`` when done: the reading thread
/// keeps the connection alive until then (or until the bus goes away).
package final class DBusConnection: Sendable {
    /// How long connecting and authenticating may take, in seconds.
    package static let connectTimeoutSeconds = 5
    /// How long a blocked write may wait for the bus to read, in seconds, before the connection is closed.
    package static let writeTimeoutSeconds = 30

    let socket: DBusSocket
    /// Whether the bus agreed to pass file descriptors (`AGREE_UNIX_FD`).
    package let supportsUnixFileDescriptors: Bool
    let state = Locked(State())
    /// Whether writing is still allowed; held for the whole of each write, which serializes them.
    let writer = Locked(true)
    /// Whether the descriptor is still open: held only briefly, so that ``close()`` can shut the
    /// socket down (waking a blocked write or read) without waiting for a write to finish.
    let descriptorOpen = Locked(true)

    struct PendingCall {
        let continuation: CheckedContinuation<DBusMessage, any Error>
        var timer: Task<Void, Never>?
    }

    struct State {
        var nextSerial: UInt32 = 1
        var pending: [UInt32: PendingCall] = [:]
        var closing = false
        var finished = false
        var closeReason: DBusConnectionError?
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
        var uniqueName = ""
        var methodHandler: (@Sendable (DBusMessage) async -> DBusMethodResult)?
        var signalHandler: (@Sendable (DBusMessage) -> Void)?
    }

    /// The longest incoming message this connection reads; longer ones are skipped unread.
    package let maximumIncomingMessageLength: Int

    private init(socket: DBusSocket, unixFileDescriptors: Bool, maximumIncomingMessageLength: Int) {
        self.socket = socket
        supportsUnixFileDescriptors = unixFileDescriptors
        self.maximumIncomingMessageLength = maximumIncomingMessageLength
    }

    /// The session bus's address: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` when
    /// that socket exists; `nil` when there is no session bus to find.
    package static func sessionBusAddress(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        let path = (runtime as NSString).appendingPathComponent("bus")
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return "unix:path=" + path
    }

    /// Connects to the bus at `address` (entries separated by `;`, tried in order), authenticates
    /// and registers with `Hello`. Each entry gets ``connectTimeoutSeconds`` to connect and
    /// authenticate, and `Hello` as long.
    ///
    /// - Parameter maximumIncomingMessageLength: messages longer than this are skipped without
    ///   being buffered or decoded (their descriptors closed), and the connection goes on. The
    ///   specification's limit, 128 MiB, is the default; a service that expects small messages
    ///   lowers it, since a decoded message takes several times its wire size in memory.
    package static func connect(
        to address: String, maximumIncomingMessageLength: Int = DBusUnmarshaller.maximumMessageLength
    ) async throws -> DBusConnection {
        let entries = try DBusAddress.parse(address)
        var lastError: (any Error)?
        for entry in entries {
            guard let socketAddress = entry.socketAddress else { continue }
            do {
                let (socket, outcome) = try await offloaded {
                    () -> Result<(DBusSocket, DBusAuthentication.Outcome), any Error> in
                    Result {
                        let socket = try DBusSocket.connect(to: socketAddress, timeout: connectTimeoutSeconds)
                        do {
                            let outcome = try DBusAuthentication.authenticate(socket)
                            try socket.setTimeouts(receive: 0, send: writeTimeoutSeconds)
                            return (socket, outcome)
                        } catch {
                            socket.close()
                            throw error
                        }
                    }
                }.get()
                let connection = DBusConnection(
                    socket: socket, unixFileDescriptors: outcome.unixFileDescriptors,
                    maximumIncomingMessageLength: maximumIncomingMessageLength)
                connection.startReading()
                do {
                    let reply = try await connection.call(
                        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                        interface: "org.freedesktop.DBus", member: "Hello",
                        timeout: .seconds(connectTimeoutSeconds))
                    guard case .string(let name) = reply.first else { throw DBusConnectionError.helloWithoutName() }
                    connection.state.withLock { $0.uniqueName = name }
                    return connection
                } catch {
                    connection.close()
                    throw error
                }
            } catch {
                lastError = error
            }
        }
        throw lastError ?? DBusConnectionError.addressWithoutSupportedEntry()
    }

    /// The unique name the bus gave this connection (`:1.42`).
    package var uniqueName: String { state.withLock { $0.uniqueName } }

    /// Whether the connection was closed (by ``close()`` or because the bus went away).
    package var isClosed: Bool { state.withLock { $0.closing || $0.finished } }

    /// Why the connection closed, once it has; `nil` while it is open or after ``close()``.
    package var closeReason: DBusConnectionError? { state.withLock { $0.closeReason } }

    /// Closes the connection: pending calls fail with `closed`, ``waitUntilClosed()`` returns.
    package func close() {
        state.withLock { $0.closing = true }
        descriptorOpen.withLock { open in if open { socket.shutDown() } }
    }

    /// Returns once the connection is closed and every pending call has failed.
    package func waitUntilClosed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state -> Bool in
                if !state.finished { state.closeWaiters.append(continuation) }
                return state.finished
            }
            if finished { continuation.resume() }
        }
    }

    /// Calls `member` and returns its reply's values; an error reply throws ``DBusError``, a
    /// transport failure, a closed connection or no reply within `timeout` a
    /// ``DBusConnectionError``. File descriptors in the reply are closed (see ``call(_:timeout:)``).
    package func call(
        destination: String?, path: String, interface: String?, member: String, body: [DBusValue] = [],
        timeout: Duration = .seconds(25)
    ) async throws -> [DBusValue] {
        let reply = try await call(
            DBusMessage(
                kind: .methodCall, path: path, interface: interface, member: member, destination: destination,
                body: body),
            timeout: timeout)
        reply.closeFileDescriptors()
        return reply.body
    }

    /// Sends the method call `message` (its ``DBusMessage/unixFileDescriptors`` passed along;
    /// the caller keeps them) and returns the whole reply, whose descriptors the caller then owns.
    package func call(_ message: DBusMessage, timeout: Duration = .seconds(25)) async throws -> DBusMessage {
        var message = message
        message.kind = .methodCall
        message.flags.remove(.noReplyExpected)
        let serial = allocateSerial()
        let bytes = try message.encoded(serial: serial)
        let member = message.member ?? ""
        let reply = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<DBusMessage, any Error>) in
                let closed = state.withLock { state -> Bool in
                    guard !state.closing, !state.finished else { return true }
                    state.pending[serial] = PendingCall(continuation: continuation, timer: nil)
                    return false
                }
                guard !closed else { return continuation.resume(throwing: closedError()) }
                // Cancelled before the call was registered: the cancellation handler found nothing to fail.
                guard !Task.isCancelled else {
                    return failPending(serial, with: DBusConnectionError.callCancelled(member))
                }
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    self?.failPending(serial, with: DBusConnectionError.callTimedOut(member, timeout: timeout))
                }
                state.withLock { state in
                    if state.pending[serial] != nil { state.pending[serial]?.timer = timer } else { timer.cancel() }
                }
                do {
                    try write(bytes, fileDescriptors: message.unixFileDescriptors)
                } catch {
                    failPending(serial, with: error)
                }
            }
        } onCancel: {
            failPending(serial, with: DBusConnectionError.callCancelled(member))
        }
        if reply.kind == .error {
            reply.closeFileDescriptors()
            throw DBusError(name: reply.errorName ?? "", message: reply.body.first?.stringValue ?? "")
        }
        return reply
    }

    /// Emits a signal (to `destination` alone when given, else to every matching listener).
    package func emitSignal(
        path: String, interface: String, member: String, body: [DBusValue] = [], destination: String? = nil
    ) throws {
        try send(
            DBusMessage(
                kind: .signal, path: path, interface: interface, member: member, destination: destination,
                body: body))
    }

    /// Sends `message` as it is (a new serial assigned), expecting nothing back; returns the serial.
    @discardableResult
    package func send(_ message: DBusMessage) throws -> UInt32 {
        let serial = allocateSerial()
        try write(try message.encoded(serial: serial), fileDescriptors: message.unixFileDescriptors)
        return serial
    }

    /// Routes every incoming method call to `handler`, each in its own task; the connection sends
    /// its result as the reply (unless the caller asked for none).
    package func setMethodCallHandler(_ handler: @escaping @Sendable (DBusMessage) async -> DBusMethodResult) {
        state.withLock { $0.methodHandler = handler }
    }

    /// Routes every received signal to `handler`, on the reading thread (keep it short). The
    /// handler owns the file descriptors of the signals it gets.
    package func setSignalHandler(_ handler: @escaping @Sendable (DBusMessage) -> Void) {
        state.withLock { $0.signalHandler = handler }
    }

    func allocateSerial() -> UInt32 {
        state.withLock { state in
            let serial = state.nextSerial
            state.nextSerial = serial == UInt32.max ? 1 : serial + 1
            return serial
        }
    }

    /// The error for a call on a closed connection.
    func closedError() -> DBusConnectionError {
        state.withLock { $0.closeReason } ?? DBusConnectionError.connectionClosed()
    }

    /// Writes one whole message; a failed or timed-out write closes the connection (the stream
    /// would be cut mid-message).
    func write(_ bytes: [UInt8], fileDescriptors: [Int32]) throws {
        guard fileDescriptors.isEmpty || supportsUnixFileDescriptors else {
            throw DBusConnectionError.fileDescriptorsNotSupported()
        }
        try writer.withLock { open in
            guard open else { throw closedError() }
            do {
                try socket.send(bytes, fileDescriptors: fileDescriptors)
            } catch {
                // A message cut short leaves the stream unreadable: end the connection.
                descriptorOpen.withLock { open in if open { socket.shutDown() } }
                throw error
            }
        }
    }

    func failPending(_ serial: UInt32, with error: any Error) {
        guard let call = state.withLock({ $0.pending.removeValue(forKey: serial) }) else { return }
        call.timer?.cancel()
        call.continuation.resume(throwing: error)
    }
}
