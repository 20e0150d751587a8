import SecureStorageFoundation

/// The client side of D-Bus authentication (D-Bus specification, "Authentication Protocol"):
/// a NUL byte, `AUTH EXTERNAL` with our uid (its decimal digits, hex-encoded), then
/// `NEGOTIATE_UNIX_FD` and `BEGIN`. The bus checks the uid against the socket's credentials.
package enum DBusAuthentication {
    /// What the bus agreed to.
    package struct Outcome {
        /// The server's GUID from its `OK` line.
        package let serverGUID: String
        /// Whether the bus agreed to pass file descriptors.
        package let unixFileDescriptors: Bool
    }

    /// The longest line we accept from the server.
    static let maximumLineLength = 16_384

    /// Authenticates on `socket` as `uid`; the socket's timeout bounds every wait.
    package static func authenticate(_ socket: DBusSocket, uid: UInt32 = getuid()) throws -> Outcome {
        let hexUID = String(uid).utf8.map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
        }.joined()
        try socket.send([0] + Array("AUTH EXTERNAL \(hexUID)\r\n".utf8))
        let reply = try readLine(socket)
        guard reply.hasPrefix("OK ") else {
            if reply.hasPrefix("REJECTED") { throw DBusConnectionError.authenticationRejected() }
            throw DBusConnectionError.unexpectedAuthenticationReply(reply)
        }
        let guid = String(reply.dropFirst(3))
        try socket.send(Array("NEGOTIATE_UNIX_FD\r\n".utf8))
        let negotiation = try readLine(socket)
        let agreed: Bool
        if negotiation == "AGREE_UNIX_FD" {
            agreed = true
        } else if negotiation.hasPrefix("ERROR") {
            agreed = false
        } else {
            throw DBusConnectionError.unexpectedAuthenticationReply(negotiation)
        }
        try socket.send(Array("BEGIN\r\n".utf8))
        return Outcome(serverGUID: guid, unixFileDescriptors: agreed)
    }

    /// One line from the server, without its CR LF; read a byte at a time so that nothing after
    /// the line is consumed.
    private static func readLine(_ socket: DBusSocket) throws -> String {
        var line: [UInt8] = []
        while true {
            var byte: UInt8 = 0
            let count = read(socket.descriptor, &byte, 1)
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw DBusConnectionError.authenticationTimedOut() }
                throw DBusConnectionError.readFailed(errno: errno)
            }
            guard count == 1 else { throw DBusConnectionError.closedDuringAuthentication() }
            if byte == UInt8(ascii: "\n"), line.last == UInt8(ascii: "\r") {
                line.removeLast()
                return String(decoding: line, as: UTF8.self)
            }
            line.append(byte)
            guard line.count <= maximumLineLength else { throw DBusConnectionError.authenticationLineTooLong() }
        }
    }
}
