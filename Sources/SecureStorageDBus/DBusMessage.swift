/// One D-Bus message: its type, flags, serial, header fields and body (D-Bus specification,
/// "Message Format"). File descriptors received with it are in ``unixFileDescriptors``; the
/// receiver owns them and must close them.
package struct DBusMessage: Sendable, Hashable {
    /// The message type (the second byte of the fixed header).
    package enum Kind: UInt8, Sendable, Hashable {
        /// A method call; a reply is expected unless ``Flags/noReplyExpected``.
        case methodCall = 1
        /// A method's reply with its return values.
        case methodReturn = 2
        /// An error reply.
        case error = 3
        /// A signal emission.
        case signal = 4
    }

    /// The flags of the fixed header.
    package struct Flags: OptionSet, Sendable, Hashable {
        /// The flags' bits.
        package let rawValue: UInt8
        /// Flags from their bits.
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The caller does not want a reply.
        package static let noReplyExpected = Flags(rawValue: 0x1)
        /// The bus must not start a service to deliver this message.
        package static let noAutoStart = Flags(rawValue: 0x2)
        /// The caller is ready to wait for an interactive authorization (a prompt).
        package static let allowInteractiveAuthorization = Flags(rawValue: 0x4)
    }

    /// The message type.
    package var kind: Kind
    /// The flags.
    package var flags: Flags
    /// The sender's serial of this message (nonzero; the connection assigns it when sending).
    package var serial: UInt32
    /// PATH: the object called, or emitting the signal.
    package var path: String?
    /// INTERFACE: the interface of the method or signal.
    package var interface: String?
    /// MEMBER: the method or signal name.
    package var member: String?
    /// ERROR_NAME: the name of an error reply.
    package var errorName: String?
    /// REPLY_SERIAL: the serial of the call this message answers.
    package var replySerial: UInt32?
    /// DESTINATION: the bus name the message is for.
    package var destination: String?
    /// SENDER: the unique name of the sender (set by the bus).
    package var sender: String?
    /// The arguments.
    package var body: [DBusValue]
    /// The file descriptors that came with the message (or go with it), indexed by `unixFD` values.
    package var unixFileDescriptors: [Int32]

    /// The signature of ``body`` (the SIGNATURE header field).
    package var bodySignature: String { body.map(\.signature).joined() }

    /// A message with the given fields.
    package init(
        kind: Kind, flags: Flags = [], serial: UInt32 = 0, path: String? = nil, interface: String? = nil,
        member: String? = nil, errorName: String? = nil, replySerial: UInt32? = nil, destination: String? = nil,
        sender: String? = nil, body: [DBusValue] = [], unixFileDescriptors: [Int32] = []
    ) {
        self.kind = kind
        self.flags = flags
        self.serial = serial
        self.path = path
        self.interface = interface
        self.member = member
        self.errorName = errorName
        self.replySerial = replySerial
        self.destination = destination
        self.sender = sender
        self.body = body
        self.unixFileDescriptors = unixFileDescriptors
    }

    /// Closes the received file descriptors (when nobody takes them).
    package func closeFileDescriptors() {
        for descriptor in unixFileDescriptors { closeDescriptor(descriptor) }
    }
}
