/// The one error type of SecureStorageDBus for failures of our side or of the wire: an address
/// that names no bus, a socket that does not connect, an authentication the bus refused, a call
/// that timed out, a closed connection, and bytes that are not a valid D-Bus message. An error
/// *reply* from the peer is a ``DBusError`` instead.
///
/// Messages never contain message bodies (which may hold secrets): they name codes, lengths,
/// offsets, signatures, names and paths only.
package struct DBusConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. Later versions may add codes, so a `switch` over one keeps a `default`.
    package struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, for example `"timedOut"`.
        package let rawValue: String

        /// Creates a code from its name.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// The code's name.
        package var description: String { rawValue }

        /// Matches any error by its code (`catch DBusConnectionError.Code.timedOut`).
        package static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? DBusConnectionError)?.code == pattern
        }

        /// The bus address is empty, malformed or names no transport we speak.
        package static let invalidAddress = Code(rawValue: "invalidAddress")
        /// The socket could not be created or connected (missing socket, refused, permission).
        package static let connectFailed = Code(rawValue: "connectFailed")
        /// The bus refused our SASL authentication or answered it with something unexpected.
        package static let authenticationFailed = Code(rawValue: "authenticationFailed")
        /// The bus did not answer in time (connect, authentication or a call).
        package static let timedOut = Code(rawValue: "timedOut")
        /// The connection is closed (by us, by the bus, or because the bus went away).
        package static let closed = Code(rawValue: "closed")
        /// Reading or writing the socket failed.
        package static let transportFailed = Code(rawValue: "transportFailed")
        /// The task waiting for a reply was cancelled.
        package static let cancelled = Code(rawValue: "cancelled")
        /// A value cannot be sent: it does not match its signature or breaks a rule of the type.
        package static let invalidValue = Code(rawValue: "invalidValue")
        /// A signature is longer than 255 bytes or not grammatically valid.
        package static let invalidSignature = Code(rawValue: "invalidSignature")
        /// A string is not valid UTF-8, holds a NUL, or is not terminated by one.
        package static let invalidString = Code(rawValue: "invalidString")
        /// An object path breaks the grammar (`/`, then `/`-separated `[A-Za-z0-9_]+` elements).
        package static let invalidObjectPath = Code(rawValue: "invalidObjectPath")
        /// A bus, interface, member or error name breaks its grammar.
        package static let invalidName = Code(rawValue: "invalidName")
        /// A boolean is neither 0 nor 1.
        package static let invalidBoolean = Code(rawValue: "invalidBoolean")
        /// Containers nest deeper than 32 arrays, 32 structures or 64 containers in all.
        package static let nestingTooDeep = Code(rawValue: "nestingTooDeep")
        /// A message is longer than 128 MiB or an array longer than 64 MiB.
        package static let lengthOutOfRange = Code(rawValue: "lengthOutOfRange")
        /// A message ends before a value it announces.
        package static let truncated = Code(rawValue: "truncated")
        /// Padding holds a byte other than zero, or a length leaves bytes unread.
        package static let invalidPadding = Code(rawValue: "invalidPadding")
        /// The fixed header is invalid: endianness, type, version or a zero serial.
        package static let invalidHeader = Code(rawValue: "invalidHeader")
        /// A header field is missing for the message type, duplicated, or of the wrong type.
        package static let invalidHeaderField = Code(rawValue: "invalidHeaderField")
        /// The body does not match the SIGNATURE header field, or fds do not match UNIX_FDS.
        package static let bodyMismatch = Code(rawValue: "bodyMismatch")
    }

    /// The kind of failure.
    package let code: Code
    /// What went wrong and what to do; never a message body.
    package let message: String

    /// An error of `code` with `message` (messages come from `DBusConnectionError+Messages.swift`).
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message, prefixed with the code.
    package var description: String { "\(code.rawValue): \(message)" }
}

/// An error reply from the peer (a message of type ERROR): its D-Bus error name and the text
/// of its first string argument, if it had one.
package struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error name, for example `org.freedesktop.DBus.Error.UnknownMethod`.
    package let name: String
    /// The peer's message (the first argument when it is a string), or empty.
    package let message: String

    /// An error reply named `name` with `message`.
    package init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The name and the message.
    package var description: String { message.isEmpty ? name : "\(name): \(message)" }
}
