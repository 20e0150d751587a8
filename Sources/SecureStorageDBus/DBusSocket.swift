import SecureStorageFoundation

/// Closes a file descriptor (a free function: inside types with a `close()` method the C
/// library's name is shadowed).
func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

/// connect(2), for the same reason.
private func connectDescriptor(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}

/// A connected Unix stream socket to a bus: connect with a deadline, whole writes with file
/// descriptors attached, reads that collect the descriptors passed with SCM_RIGHTS. It does not
/// own the descriptor's lifetime beyond ``close()``; ``DBusConnection`` decides when to call it.
package struct DBusSocket: Sendable {
    /// The socket's descriptor.
    package let descriptor: Int32

    /// A socket for `descriptor`, already connected (or accepted).
    package init(descriptor: Int32) { self.descriptor = descriptor }

    /// The most descriptors one read accepts (the bus passes at most 16 per message by default).
    static let maximumDescriptorsPerRead = 253

    /// Connects to `address`, waiting at most `timeout` seconds (connect, and every read and
    /// write until ``setTimeout(_:)`` changes it).
    package static func connect(to address: DBusAddress.SocketAddress, timeout: Int) throws -> DBusSocket {
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let pathBytes: [UInt8]
        let display: String
        switch address {
        case .path(let path):
            pathBytes = Array(path.utf8) + [0]
            display = path
        case .abstract(let name):
            pathBytes = [0] + Array(name.utf8)
            display = "@" + name
        }
        let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
        guard pathBytes.count <= capacity, !pathBytes.dropFirst().dropLast().contains(0) else {
            throw DBusConnectionError.socketPathTooLong(display, limit: capacity - 1)
        }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { raw in
            for (index, byte) in pathBytes.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + pathBytes.count)

        #if os(Linux)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw DBusConnectionError.socketFailed(errno: errno) }
        let socket = DBusSocket(descriptor: descriptor)
        do {
            try socket.setTimeout(timeout)
            let result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connectDescriptor(descriptor, $0, length) }
            }
            guard result == 0 else {
                let code = errno
                if code == EAGAIN || code == EINPROGRESS || code == ETIMEDOUT {
                    throw DBusConnectionError.connectTimedOut(display, seconds: timeout)
                }
                throw DBusConnectionError.connectFailed(display, errno: code)
            }
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// Every later read and write fails after `seconds` without progress (0: waits forever).
    package func setTimeout(_ seconds: Int) throws { try setTimeouts(receive: seconds, send: seconds) }

    /// Reads fail after `receive` seconds and writes after `send` seconds without progress (0: never).
    package func setTimeouts(receive: Int, send: Int) throws {
        for (option, seconds) in [(SO_RCVTIMEO, receive), (SO_SNDTIMEO, send)] {
            var interval = timeval(tv_sec: seconds, tv_usec: 0)
            guard setsockopt(descriptor, SOL_SOCKET, option, &interval, socklen_t(MemoryLayout<timeval>.size)) == 0
            else { throw DBusConnectionError.socketFailed(errno: errno) }
        }
    }

    /// Closes the socket.
    package func close() { closeDescriptor(descriptor) }

    /// Shuts both directions down, waking a thread blocked reading it.
    package func shutDown() { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Writes all of `bytes`, passing `fileDescriptors` with the first byte; retries on EINTR
    /// and continues after partial writes.
    package func send(_ bytes: [UInt8], fileDescriptors: [Int32] = []) throws {
        var sent = 0
        var pendingDescriptors = fileDescriptors
        while sent < bytes.count {
            let written = bytes.withUnsafeBytes { raw -> Int in
                var vector = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + sent), iov_len: raw.count - sent)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var header = msghdr()
                    header.msg_iov = vectorPointer
                    header.msg_iovlen = 1
                    if pendingDescriptors.isEmpty { return sendmsg(descriptor, &header, Int32(MSG_NOSIGNAL)) }
                    var control = ControlMessage.rights(pendingDescriptors)
                    return control.withUnsafeMutableBytes { controlBytes in
                        header.msg_control = controlBytes.baseAddress
                        header.msg_controllen = controlBytes.count
                        return sendmsg(descriptor, &header, Int32(MSG_NOSIGNAL))
                    }
                }
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { throw DBusConnectionError.writeTimedOut() }
                throw DBusConnectionError.writeFailed(errno: code)
            }
            sent += written
            pendingDescriptors = []
        }
    }

    /// Reads what is available (at most `capacity` bytes), blocking until something is; the
    /// descriptors that came with it are returned (close-on-exec). Zero bytes: the peer closed.
    package func receive(capacity: Int) throws -> (bytes: [UInt8], fileDescriptors: [Int32]) {
        var buffer = [UInt8](repeating: 0, count: capacity)
        var control = [UInt8](repeating: 0, count: ControlMessage.space(forDescriptors: Self.maximumDescriptorsPerRead))
        while true {
            var header = msghdr()
            let count = buffer.withUnsafeMutableBytes { raw -> Int in
                var vector = iovec(iov_base: raw.baseAddress, iov_len: raw.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    control.withUnsafeMutableBytes { controlBytes in
                        header.msg_iov = vectorPointer
                        header.msg_iovlen = 1
                        header.msg_control = controlBytes.baseAddress
                        header.msg_controllen = controlBytes.count
                        return recvmsg(descriptor, &header, Self.receiveFlags)
                    }
                }
            }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { throw DBusConnectionError.readTimedOut() }
                throw DBusConnectionError.readFailed(errno: code)
            }
            let descriptors = ControlMessage.descriptors(in: control, length: Int(header.msg_controllen))
            if header.msg_flags & Int32(MSG_CTRUNC) != 0 {
                for descriptor in descriptors { closeDescriptor(descriptor) }
                throw DBusConnectionError.tooManyDescriptors(limit: Self.maximumDescriptorsPerRead)
            }
            return (Array(buffer[0..<count]), descriptors)
        }
    }

    #if os(Linux)
    private static let receiveFlags = Int32(MSG_CMSG_CLOEXEC)
    #else
    private static let receiveFlags: Int32 = 0
    #endif

    /// The uid, gid and pid of the peer (SO_PEERCRED), on Linux.
    package func peerCredentials() -> (uid: UInt32, pid: Int32)? {
        #if os(Linux)
        // struct ucred (pid, uid, gid: three 32-bit fields), which Glibc hides behind _GNU_SOURCE.
        var credentials: [Int32] = [0, 0, 0]
        var length = socklen_t(MemoryLayout<Int32>.size * 3)
        let result = credentials.withUnsafeMutableBytes { raw in
            getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, raw.baseAddress, &length)
        }
        guard result == 0, length == socklen_t(MemoryLayout<Int32>.size * 3) else { return nil }
        return (UInt32(bitPattern: credentials[1]), credentials[0])
        #else
        return nil
        #endif
    }
}

/// SCM_RIGHTS control messages, laid out by hand (the `CMSG_*` macros do not reach Swift).
enum ControlMessage {
    private static let headerLength = MemoryLayout<cmsghdr>.size
    private static let alignment = MemoryLayout<Int>.size

    private static func aligned(_ length: Int) -> Int { (length + alignment - 1) & ~(alignment - 1) }

    /// CMSG_SPACE for `count` descriptors.
    static func space(forDescriptors count: Int) -> Int {
        aligned(headerLength) + aligned(count * MemoryLayout<Int32>.size)
    }

    /// One SCM_RIGHTS message carrying `descriptors`.
    static func rights(_ descriptors: [Int32]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: space(forDescriptors: descriptors.count))
        bytes.withUnsafeMutableBytes { raw in
            var header = cmsghdr()
            header.cmsg_len = aligned(headerLength) + descriptors.count * MemoryLayout<Int32>.size
            header.cmsg_level = SOL_SOCKET
            header.cmsg_type = Int32(SCM_RIGHTS)
            raw.storeBytes(of: header, as: cmsghdr.self)
            for (index, descriptor) in descriptors.enumerated() {
                raw.storeBytes(
                    of: descriptor, toByteOffset: aligned(headerLength) + index * MemoryLayout<Int32>.size,
                    as: Int32.self)
            }
        }
        return bytes
    }

    /// The descriptors of every SCM_RIGHTS message in the first `length` bytes of `control`.
    static func descriptors(in control: [UInt8], length: Int) -> [Int32] {
        var descriptors: [Int32] = []
        var offset = 0
        let end = min(length, control.count)
        control.withUnsafeBytes { raw in
            while end - offset >= headerLength {
                let header = raw.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
                let messageLength = Int(header.cmsg_len)
                guard messageLength >= aligned(headerLength), messageLength <= end - offset else { break }
                if header.cmsg_level == SOL_SOCKET, header.cmsg_type == Int32(SCM_RIGHTS) {
                    let count = (messageLength - aligned(headerLength)) / MemoryLayout<Int32>.size
                    for index in 0..<count {
                        descriptors.append(
                            raw.loadUnaligned(
                                fromByteOffset: offset + aligned(headerLength) + index * MemoryLayout<Int32>.size,
                                as: Int32.self))
                    }
                }
                offset += aligned(messageLength)
            }
        }
        return descriptors
    }
}
