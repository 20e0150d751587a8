/// The codes of the header fields (D-Bus specification, "Header Fields").
enum DBusHeaderField: UInt8 {
    case path = 1
    case interface = 2
    case member = 3
    case errorName = 4
    case replySerial = 5
    case destination = 6
    case sender = 7
    case signature = 8
    case unixFDs = 9

    /// The type the field's variant must hold.
    var type: DBusType {
        switch self {
        case .path: .objectPath
        case .interface, .member, .errorName, .destination, .sender: .string
        case .replySerial, .unixFDs: .uint32
        case .signature: .signature
        }
    }

    /// The field's name in the specification, for messages.
    var name: String {
        switch self {
        case .path: "PATH"
        case .interface: "INTERFACE"
        case .member: "MEMBER"
        case .errorName: "ERROR_NAME"
        case .replySerial: "REPLY_SERIAL"
        case .destination: "DESTINATION"
        case .sender: "SENDER"
        case .signature: "SIGNATURE"
        case .unixFDs: "UNIX_FDS"
        }
    }
}
