extension DBusMessage {
    /// The fixed header's length: endianness, type, flags, version, body length, serial and the
    /// header fields array's length.
    package static let fixedHeaderLength = 16

    /// The bytes of this message, little-endian, with `serial` (nonzero) as its serial. The
    /// header fields and the body are validated first (names, paths, values against their types).
    package func encoded(serial: UInt32) throws -> [UInt8] {
        guard serial != 0 else { throw DBusConnectionError.zeroSerial() }
        try validateFields()
        var body = DBusMarshaller()
        try body.append(self.body)
        var fields: [(DBusHeaderField, DBusValue)] = []
        if let path { fields.append((.path, .objectPath(path))) }
        if let interface { fields.append((.interface, .string(interface))) }
        if let member { fields.append((.member, .string(member))) }
        if let errorName { fields.append((.errorName, .string(errorName))) }
        if let replySerial { fields.append((.replySerial, .uint32(replySerial))) }
        if let destination { fields.append((.destination, .string(destination))) }
        if let sender { fields.append((.sender, .string(sender))) }
        if !self.body.isEmpty { fields.append((.signature, .signature(bodySignature))) }
        if !unixFileDescriptors.isEmpty { fields.append((.unixFDs, .uint32(UInt32(unixFileDescriptors.count)))) }

        var message = DBusMarshaller()
        message.append(UInt8(ascii: "l"))
        message.append(kind.rawValue)
        message.append(flags.rawValue)
        message.append(UInt8(1))
        message.append(UInt32(body.bytes.count))
        message.append(serial)
        try message.append(
            .array(
                elementSignature: "(yv)",
                fields.map { code, value in .structure([.byte(code.rawValue), .variant(value)]) }))
        message.pad(to: 8)
        let total = message.bytes.count + body.bytes.count
        guard total <= DBusUnmarshaller.maximumMessageLength else {
            throw DBusConnectionError.messageTooLong(total)
        }
        return message.bytes + body.bytes
    }

    /// The whole length of the message whose first 16 bytes are `header`, checked against the
    /// 128 MiB limit before anything is allocated for it.
    package static func length(ofMessageStartingWith header: ArraySlice<UInt8>) throws -> Int {
        guard header.count >= fixedHeaderLength else { throw DBusConnectionError.truncatedValue(at: header.count) }
        let start = header.startIndex
        let bigEndian: Bool
        switch header[start] {
        case UInt8(ascii: "l"): bigEndian = false
        case UInt8(ascii: "B"): bigEndian = true
        case let other: throw DBusConnectionError.invalidEndianness(other)
        }
        func integer(at offset: Int) -> Int {
            let bytes = header[(start + offset)..<(start + offset + 4)]
            return (bigEndian ? bytes : ArraySlice(bytes.reversed())).reduce(0) { $0 << 8 | Int($1) }
        }
        let bodyLength = integer(at: 4)
        let fieldsLength = integer(at: 12)
        guard fieldsLength <= DBusUnmarshaller.maximumArrayLength else {
            throw DBusConnectionError.arrayTooLong(fieldsLength, at: 12)
        }
        let headerLength = (fixedHeaderLength + fieldsLength + 7) & ~7
        let total = headerLength + bodyLength
        guard total <= DBusUnmarshaller.maximumMessageLength else { throw DBusConnectionError.messageTooLong(total) }
        return total
    }

    /// The message in `bytes` (exactly one whole message), with `fileDescriptors` received with
    /// it; every rule of the specification is checked, and a violation is a precise error.
    package init(decoding bytes: [UInt8], fileDescriptors: [Int32] = []) throws {
        let total = try Self.length(ofMessageStartingWith: bytes[...])
        guard total == bytes.count else {
            throw total > bytes.count
                ? DBusConnectionError.truncatedValue(at: bytes.count)
                : DBusConnectionError.trailingBytes(bytes.count - total)
        }
        let bigEndian = bytes[0] == UInt8(ascii: "B")
        guard let kind = Kind(rawValue: bytes[1]) else { throw DBusConnectionError.unknownMessageType(bytes[1]) }
        guard bytes[3] == 1 else { throw DBusConnectionError.unsupportedProtocolVersion(bytes[3]) }
        var reader = DBusUnmarshaller(bytes: bytes, offset: 4, bigEndian: bigEndian)
        let bodyLength = Int(try reader.readInteger(UInt32.self))
        let serial = try reader.readInteger(UInt32.self)
        guard serial != 0 else { throw DBusConnectionError.zeroSerial() }
        guard case .array(_, let fieldValues) = try reader.read(.array(.structure([.byte, .variant]))) else {
            throw DBusConnectionError.truncatedValue(at: 12)
        }
        try reader.align(to: 8)
        let bodyStart = reader.offset
        guard bytes.count - bodyStart == bodyLength else { throw DBusConnectionError.truncatedValue(at: bodyStart) }

        var fields: [DBusHeaderField: DBusValue] = [:]
        for case .structure(let pair) in fieldValues {
            guard case .byte(let code) = pair[0], case .variant(let value) = pair[1] else { continue }
            guard let field = DBusHeaderField(rawValue: code) else { continue }  // unknown fields are ignored
            guard fields[field] == nil else { throw DBusConnectionError.duplicateHeaderField(field.name) }
            guard value.signature == field.type.signature else {
                throw DBusConnectionError.headerFieldOfWrongType(field.name, signature: value.signature)
            }
            fields[field] = value
        }
        func uint32(_ field: DBusHeaderField) -> UInt32? {
            if case .uint32(let number) = fields[field] { number } else { nil }
        }
        let announcedDescriptors = Int(uint32(.unixFDs) ?? 0)
        guard announcedDescriptors == fileDescriptors.count else {
            throw DBusConnectionError.fileDescriptorCountMismatch(
                announced: announcedDescriptors, received: fileDescriptors.count)
        }
        let signature = fields[.signature]?.stringValue ?? ""
        guard !signature.isEmpty || bodyLength == 0 else { throw DBusConnectionError.bodyWithoutSignature(bodyLength) }
        let bodyTypes = try DBusSignature.parse(signature)
        var bodyReader = DBusUnmarshaller(
            bytes: bytes, offset: bodyStart, bigEndian: bigEndian, fileDescriptorCount: fileDescriptors.count)
        let body: [DBusValue]
        do {
            body = try bodyReader.read(bodyTypes)
        } catch let error as DBusConnectionError where error.code == .truncated {
            throw DBusConnectionError.bodyShorterThanSignature(signature)
        }
        guard bodyReader.isAtEnd else { throw DBusConnectionError.bodyLongerThanSignature(signature) }

        self.init(
            kind: kind, flags: Flags(rawValue: bytes[2] & 0x7), serial: serial, path: fields[.path]?.stringValue,
            interface: fields[.interface]?.stringValue, member: fields[.member]?.stringValue,
            errorName: fields[.errorName]?.stringValue, replySerial: uint32(.replySerial),
            destination: fields[.destination]?.stringValue, sender: fields[.sender]?.stringValue, body: body,
            unixFileDescriptors: fileDescriptors)
        try validateFields()
    }

    /// The header fields this message's type requires are present, and every name is valid.
    func validateFields() throws {
        switch kind {
        case .methodCall:
            guard path != nil else { throw DBusConnectionError.missingHeaderField("PATH", kind: kind) }
            guard member != nil else { throw DBusConnectionError.missingHeaderField("MEMBER", kind: kind) }
        case .methodReturn:
            guard replySerial != nil else { throw DBusConnectionError.missingHeaderField("REPLY_SERIAL", kind: kind) }
        case .error:
            guard errorName != nil else { throw DBusConnectionError.missingHeaderField("ERROR_NAME", kind: kind) }
            guard replySerial != nil else { throw DBusConnectionError.missingHeaderField("REPLY_SERIAL", kind: kind) }
        case .signal:
            guard path != nil else { throw DBusConnectionError.missingHeaderField("PATH", kind: kind) }
            guard interface != nil else { throw DBusConnectionError.missingHeaderField("INTERFACE", kind: kind) }
            guard member != nil else { throw DBusConnectionError.missingHeaderField("MEMBER", kind: kind) }
        }
        if let path, !DBusNames.isValidObjectPath(path) { throw DBusConnectionError.invalidHeaderName("PATH") }
        if let interface, !DBusNames.isValidInterfaceName(interface) {
            throw DBusConnectionError.invalidHeaderName("INTERFACE")
        }
        if let member, !DBusNames.isValidMemberName(member) { throw DBusConnectionError.invalidHeaderName("MEMBER") }
        if let errorName, !DBusNames.isValidInterfaceName(errorName) {
            throw DBusConnectionError.invalidHeaderName("ERROR_NAME")
        }
        if let destination, !DBusNames.isValidBusName(destination) {
            throw DBusConnectionError.invalidHeaderName("DESTINATION")
        }
        if let sender, !DBusNames.isValidBusName(sender) { throw DBusConnectionError.invalidHeaderName("SENDER") }
        if interface == "org.freedesktop.DBus.Local" { throw DBusConnectionError.reservedInterface() }
    }
}
