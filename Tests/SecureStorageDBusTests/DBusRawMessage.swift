import SecureStorageDBus

/// Messages assembled byte by byte, for bytes our encoder refuses to produce.
enum DBusRawMessage {
    /// A little-endian message of `type` with `fields` (code, value) and a body of `body` bytes as given.
    /// `rawSignature`, when given, is written last as the SIGNATURE field without validation.
    static func littleEndian(
        type: UInt8 = 1, serial: UInt32 = 1, fields: [(UInt8, DBusValue)], rawSignature: String? = nil,
        body: [UInt8]
    ) throws -> [UInt8] {
        var header = DBusMarshaller()
        header.append(UInt8(ascii: "l"))
        header.append(type)
        header.append(UInt8(0))
        header.append(UInt8(1))
        header.append(UInt32(body.count))
        header.append(serial)
        try header.append(
            .array(
                elementSignature: "(yv)", fields.map { code, value in .structure([.byte(code), .variant(value)]) }))
        var bytes = header.bytes
        if let rawSignature {
            let signature = Array(rawSignature.utf8)
            if !fields.isEmpty { while bytes.count % 8 != 0 { bytes.append(0) } }
            bytes += [8, 1, UInt8(ascii: "g"), 0, UInt8(signature.count)] + signature + [0]
            let length = UInt32(bytes.count - 16)
            bytes.replaceSubrange(12..<16, with: uint32(length))
        }
        while bytes.count % 8 != 0 { bytes.append(0) }
        return bytes + body
    }

    /// A method call to `/` member `M` whose body has `signature` (not validated) and the raw `body` bytes.
    static func call(signature: String, body: [UInt8]) throws -> [UInt8] {
        try littleEndian(fields: [(1, .objectPath("/")), (3, .string("M"))], rawSignature: signature, body: body)
    }

    /// `value` as a little-endian 32-bit integer.
    static func uint32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
}
