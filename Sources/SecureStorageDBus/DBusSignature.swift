/// Parses and validates D-Bus signatures: at most 255 bytes, only known type codes, arrays with
/// an element type, non-empty structures, dict entries only as array elements with a basic key
/// and one value, and no more than 32 nested arrays and 32 nested structures.
package enum DBusSignature {
    /// The longest signature the specification allows, in bytes.
    package static let maximumLength = 255
    /// The deepest nesting of arrays, and separately of structures (dict entries count as structures).
    package static let maximumDepth = 32

    /// The complete types of `signature`, in order (empty for the empty signature).
    package static func parse(_ signature: String) throws -> [DBusType] {
        let bytes = Array(signature.utf8)
        guard bytes.count <= maximumLength else { throw DBusConnectionError.signatureTooLong(bytes.count) }
        var parser = Parser(bytes: bytes, signature: signature)
        var types: [DBusType] = []
        while parser.offset < bytes.count { types.append(try parser.completeType(arrays: 0, structures: 0)) }
        return types
    }

    /// The one complete type `signature` must hold (a variant's signature).
    package static func parseSingle(_ signature: String) throws -> DBusType {
        let types = try parse(signature)
        guard types.count == 1 else { throw DBusConnectionError.notSingleCompleteType(signature, count: types.count) }
        return types[0]
    }

    /// `signature` split into its complete types, each as a signature (`"a{sv}s"` → `["a{sv}", "s"]`).
    package static func completeTypes(_ signature: String) throws -> [String] {
        try parse(signature).map(\.signature)
    }

    /// Whether `signature` is a valid signature.
    package static func isValid(_ signature: String) -> Bool { (try? parse(signature)) != nil }

    private struct Parser {
        let bytes: [UInt8]
        let signature: String
        var offset = 0

        mutating func completeType(arrays: Int, structures: Int) throws -> DBusType {
            guard offset < bytes.count else { throw DBusConnectionError.signatureEndsEarly(signature) }
            let code = bytes[offset]
            offset += 1
            if let basic = DBusType(code: code) { return basic }
            switch code {
            case UInt8(ascii: "a"):
                guard arrays < DBusSignature.maximumDepth else {
                    throw DBusConnectionError.signatureNestsTooDeeply(signature)
                }
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "{") {
                    offset += 1
                    return try dictEntry(arrays: arrays + 1, structures: structures)
                }
                return .array(try completeType(arrays: arrays + 1, structures: structures))
            case UInt8(ascii: "("):
                guard structures < DBusSignature.maximumDepth else {
                    throw DBusConnectionError.signatureNestsTooDeeply(signature)
                }
                var fields: [DBusType] = []
                while true {
                    guard offset < bytes.count else { throw DBusConnectionError.signatureEndsEarly(signature) }
                    if bytes[offset] == UInt8(ascii: ")") {
                        offset += 1
                        break
                    }
                    fields.append(try completeType(arrays: arrays, structures: structures + 1))
                }
                guard !fields.isEmpty else { throw DBusConnectionError.emptyStructureInSignature(signature) }
                return .structure(fields)
            default:
                throw DBusConnectionError.unexpectedSignatureCode(code, at: offset - 1, in: signature)
            }
        }

        mutating func dictEntry(arrays: Int, structures: Int) throws -> DBusType {
            guard structures < DBusSignature.maximumDepth else {
                throw DBusConnectionError.signatureNestsTooDeeply(signature)
            }
            let key = try completeType(arrays: arrays, structures: structures + 1)
            guard key.isBasic else { throw DBusConnectionError.dictKeyNotBasic(signature) }
            let value = try completeType(arrays: arrays, structures: structures + 1)
            guard offset < bytes.count else { throw DBusConnectionError.signatureEndsEarly(signature) }
            guard bytes[offset] == UInt8(ascii: "}") else { throw DBusConnectionError.dictEntryNotTwoTypes(signature) }
            offset += 1
            return .dictionary(key: key, value: value)
        }
    }
}
