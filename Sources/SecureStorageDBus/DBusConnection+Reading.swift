import Foundation
import SecureStorageFoundation

extension DBusConnection {
    /// The interface every connection answers itself.
    static let peerInterface = "org.freedesktop.DBus.Peer"

    /// Starts the thread that reads and dispatches messages until the socket closes.
    func startReading() {
        let thread = Thread { [self] in readLoop() }
        thread.name = "dbus-reader"
        thread.start()
    }

    private func readLoop() {
        var buffer: [UInt8] = []
        var start = 0
        var descriptors: [Int32] = []
        var reason: DBusConnectionError?
        // Bytes still to skip of a message longer than maximumIncomingMessageLength.
        var skipping = 0
        reading: while true {
            do {
                let (bytes, received) = try socket.receive(capacity: 65_536)
                descriptors += received
                if bytes.isEmpty {
                    let closedByUs = state.withLock { $0.closing }
                    reason = closedByUs ? nil : DBusConnectionError.closedByBus()
                    break reading
                }
                if start > 0, start == buffer.count || start >= 1 << 20 {
                    buffer.removeFirst(start)
                    start = 0
                }
                buffer += bytes
                while buffer.count - start >= (skipping > 0 ? 1 : DBusMessage.fixedHeaderLength) {
                    if skipping > 0 {
                        let skipped = min(skipping, buffer.count - start)
                        start += skipped
                        skipping -= skipped
                        continue
                    }
                    let length = try DBusMessage.length(ofMessageStartingWith: buffer[start..<start + 16])
                    if length > maximumIncomingMessageLength {
                        // Too long to hold: skipped unread, with the descriptors that came so far.
                        for descriptor in descriptors { closeDescriptor(descriptor) }
                        descriptors = []
                        skipping = length
                        continue
                    }
                    guard buffer.count - start >= length else { break }
                    let frame = Array(buffer[start..<start + length])
                    start += length
                    let announced = try Self.announcedDescriptorCount(frame)
                    guard announced <= descriptors.count else {
                        throw DBusConnectionError.fileDescriptorCountMismatch(
                            announced: announced, received: descriptors.count)
                    }
                    let attached = Array(descriptors.prefix(announced))
                    descriptors.removeFirst(announced)
                    guard let message = try? DBusMessage(decoding: frame, fileDescriptors: attached) else {
                        // A message the bus let through but we cannot read: dropped, the stream stays in step.
                        for descriptor in attached { closeDescriptor(descriptor) }
                        continue
                    }
                    dispatch(message)
                }
            } catch let error as DBusConnectionError {
                reason = error
                break reading
            } catch {
                reason = DBusConnectionError.connectionClosed()
                break reading
            }
        }
        for descriptor in descriptors { closeDescriptor(descriptor) }
        finish(reason: reason)
    }

    /// The UNIX_FDS header field of a framed message (0 when absent or unreadable).
    private static func announcedDescriptorCount(_ frame: [UInt8]) throws -> Int {
        var reader = DBusUnmarshaller(bytes: frame, offset: 12, bigEndian: frame[0] == UInt8(ascii: "B"))
        guard case .array(_, let fields)? = try? reader.read(.array(.structure([.byte, .variant]))) else { return 0 }
        for case .structure(let pair) in fields {
            if case .byte(DBusHeaderField.unixFDs.rawValue) = pair[0], case .variant(.uint32(let count)) = pair[1] {
                guard count <= DBusSocket.maximumDescriptorsPerRead else {
                    throw DBusConnectionError.tooManyDescriptors(limit: DBusSocket.maximumDescriptorsPerRead)
                }
                return Int(count)
            }
        }
        return 0
    }

    private func finish(reason: DBusConnectionError?) {
        let (pending, waiters) = state.withLock { state in
            state.finished = true
            state.closeReason = reason
            defer {
                state.pending = [:]
                state.closeWaiters = []
            }
            return (Array(state.pending.values), state.closeWaiters)
        }
        // Shut down first, so that a write blocked on a bus that stopped reading fails at once;
        // then no write starts after this.
        descriptorOpen.withLock { open in if open { socket.shutDown() } }
        writer.withLock { $0 = false }
        descriptorOpen.withLock { open in
            if open {
                open = false
                socket.close()
            }
        }
        let error = reason ?? DBusConnectionError.connectionClosed()
        for call in pending {
            call.timer?.cancel()
            call.continuation.resume(throwing: error)
        }
        for waiter in waiters { waiter.resume() }
    }

    private func dispatch(_ message: DBusMessage) {
        switch message.kind {
        case .methodReturn, .error:
            guard let serial = message.replySerial,
                let call = state.withLock({ $0.pending.removeValue(forKey: serial) })
            else { return message.closeFileDescriptors() }
            call.timer?.cancel()
            call.continuation.resume(returning: message)
        case .signal:
            guard let handler = state.withLock({ $0.signalHandler }) else { return message.closeFileDescriptors() }
            handler(message)
        case .methodCall:
            if message.interface == Self.peerInterface {
                message.closeFileDescriptors()
                return answer(message, with: peerResult(message))
            }
            guard let handler = state.withLock({ $0.methodHandler }) else {
                message.closeFileDescriptors()
                return answer(
                    message,
                    with: .error(
                        name: "org.freedesktop.DBus.Error.UnknownMethod",
                        message: "No method \(message.member ?? "") here: the service is not ready."))
            }
            Task { [self] in answer(message, with: await handler(message)) }
        }
    }

    private func peerResult(_ message: DBusMessage) -> DBusMethodResult {
        switch (message.member, message.bodySignature) {
        case ("Ping", ""): return .reply([])
        case ("GetMachineId", ""):
            guard let machineID = Self.machineID() else {
                return .error(name: "org.freedesktop.DBus.Error.FileNotFound", message: "No machine id on this host.")
            }
            return .reply([.string(machineID)])
        default:
            return .error(
                name: "org.freedesktop.DBus.Error.UnknownMethod",
                message: "org.freedesktop.DBus.Peer has no method \(message.member ?? "") of signature "
                    + "\"\(message.bodySignature)\".")
        }
    }

    /// Sends `result` as the reply to `call`, unless the caller asked for none. A reply that
    /// cannot be encoded becomes an error reply.
    func answer(_ call: DBusMessage, with result: DBusMethodResult) {
        guard !call.flags.contains(.noReplyExpected) else { return }
        var reply: DBusMessage
        switch result {
        case .reply(let values):
            reply = DBusMessage(kind: .methodReturn, replySerial: call.serial, destination: call.sender, body: values)
        case .error(let name, let text):
            reply = DBusMessage(
                kind: .error, errorName: name, replySerial: call.serial, destination: call.sender, body: [.string(text)]
            )
        }
        do {
            try send(reply)
        } catch DBusConnectionError.Code.closed {
            return
        } catch {
            reply = DBusMessage(
                kind: .error, errorName: "org.freedesktop.DBus.Error.Failed", replySerial: call.serial,
                destination: call.sender, body: [.string("The service's reply could not be encoded.")])
            _ = try? send(reply)
        }
    }

    /// This machine's id (`/etc/machine-id`, else `/var/lib/dbus/machine-id`).
    static func machineID() -> String? {
        for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if id.count == 32, id.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) { return id }
        }
        return nil
    }
}
