/// One entry of a D-Bus server address (D-Bus specification, "Server Addresses"): a transport
/// and its `key=value` pairs, percent-escapes decoded.
package struct DBusAddress: Sendable, Hashable {
    /// The transport, for example `unix`.
    package let transport: String
    /// The entry's keys and their decoded values.
    package let parameters: [String: String]

    /// Where a client connects, for the transports we speak.
    package enum SocketAddress: Sendable, Hashable {
        /// `unix:path=…`: a socket in the file system.
        case path(String)
        /// `unix:abstract=…`: a socket in Linux's abstract namespace.
        case abstract(String)
    }

    /// The socket of a `unix` entry with `path` or `abstract`, else `nil` (listening-only keys
    /// such as `dir` and `tmpdir`, and other transports).
    package var socketAddress: SocketAddress? {
        guard transport == "unix" else { return nil }
        if let path = parameters["path"] { return .path(path) }
        if let name = parameters["abstract"] { return .abstract(name) }
        return nil
    }

    /// The entries of `address`, separated by `;`, in order; empty entries are skipped.
    package static func parse(_ address: String) throws -> [DBusAddress] {
        let entries = try address.split(separator: ";").map { entry -> DBusAddress in
            guard let colon = entry.firstIndex(of: ":"), colon != entry.startIndex else {
                throw DBusConnectionError.addressEntryWithoutTransport()
            }
            var parameters: [String: String] = [:]
            for pair in entry[entry.index(after: colon)...].split(separator: ",") {
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw DBusConnectionError.addressPairMalformed()
                }
                let key = String(pair[..<equals])
                guard parameters[key] == nil else { throw DBusConnectionError.addressKeyRepeated(key) }
                parameters[key] = try percentDecoded(pair[pair.index(after: equals)...])
            }
            return DBusAddress(transport: String(entry[..<colon]), parameters: parameters)
        }
        guard !entries.isEmpty else { throw DBusConnectionError.addressEmpty() }
        return entries
    }

    private static func percentDecoded(_ text: Substring) throws -> String {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw DBusConnectionError.addressEscapeMalformed()
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validatingUTF8Bytes: bytes[...]) else {
            throw DBusConnectionError.addressEscapeMalformed()
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
