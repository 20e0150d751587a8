import Foundation
import SecureStorageDBus

/// A method call's body, checked against the signature the method takes before anything is read:
/// a wrong signature is ``SecretServiceError/wrongSignature(_:expected:got:)``, never a crash.
struct MethodArguments {
    /// The most attribute pairs a map may hold.
    static let attributePairLimit = 256
    /// The most bytes an attribute map's names and values may hold together.
    static let attributeByteLimit = 65_536
    /// The largest secret accepted.
    static let secretByteLimit = 1 << 20

    let member: String
    let values: [DBusValue]

    /// The body, if its signature is `signature`.
    init(member: String, body: [DBusValue], signature: String) throws(SecretServiceError) {
        let got = body.map(\.signature).joined()
        guard got == signature else { throw .wrongSignature(member, expected: signature, got: got) }
        self.member = member
        self.values = body
    }

    func string(_ index: Int) -> String { values[index].stringValue ?? "" }

    func boolean(_ index: Int) -> Bool { if case .boolean(let value) = values[index] { value } else { false } }

    func objectPaths(_ index: Int) -> [String] {
        guard case .array(_, let elements) = values[index] else { return [] }
        return elements.compactMap(\.stringValue)
    }

    /// An `a{ss}` argument as a map, within the limits.
    func attributes(_ index: Int) throws(SecretServiceError) -> [String: String] {
        try Self.attributes(values[index])
    }

    /// An `a{ss}` value as a map, within the limits.
    static func attributes(_ value: DBusValue) throws(SecretServiceError) -> [String: String] {
        guard case .dictionary("s", "s", let entries) = value else {
            throw .invalidArgument("attributes must be of type a{ss}")
        }
        var size = 0
        var map: [String: String] = [:]
        for entry in entries {
            let key = entry.key.stringValue ?? ""
            let text = entry.value.stringValue ?? ""
            size += key.utf8.count + text.utf8.count
            map[key] = text
        }
        guard entries.count <= attributePairLimit, size <= attributeByteLimit else {
            throw .attributesTooLarge(
                count: entries.count, size: size, countLimit: attributePairLimit, sizeLimit: attributeByteLimit)
        }
        return map
    }

    /// An `a{sv}` argument as a map of name to unwrapped value.
    func properties(_ index: Int) -> [String: DBusValue] {
        guard case .dictionary(_, _, let entries) = values[index] else { return [:] }
        var map: [String: DBusValue] = [:]
        for entry in entries { map[entry.key.stringValue ?? ""] = entry.value.unwrappingVariant }
        return map
    }

    /// A `(oayays)` secret argument.
    func secret(_ index: Int) throws(SecretServiceError) -> SecretValue { try SecretValue(values[index]) }
}

/// The spec's `Secret` struct `(oayays)`: session, parameters, value, content type.
struct SecretValue {
    /// The struct's signature.
    static let signature = "(oayays)"

    var session: String
    var parameters: Data
    var value: Data
    var contentType: String

    init(session: String, parameters: Data, value: Data, contentType: String) {
        self.session = session
        self.parameters = parameters
        self.value = value
        self.contentType = contentType
    }

    /// Parses a `(oayays)` value.
    init(_ value: DBusValue) throws(SecretServiceError) {
        guard case .structure(let fields) = value, fields.count == 4, case .objectPath(let session) = fields[0],
            let parameters = Self.bytes(fields[1]), let secret = Self.bytes(fields[2]),
            case .string(let contentType) = fields[3]
        else { throw .invalidArgument("a secret must be of type (oayays)") }
        guard secret.count <= MethodArguments.secretByteLimit + 32, parameters.count <= 256 else {
            throw .secretTooLarge(size: secret.count, limit: MethodArguments.secretByteLimit)
        }
        self.init(session: session, parameters: parameters, value: secret, contentType: contentType)
    }

    /// The D-Bus value.
    var dbusValue: DBusValue {
        .structure([.objectPath(session), Self.byteArray(parameters), Self.byteArray(value), .string(contentType)])
    }

    /// `ay` from bytes.
    static func byteArray(_ data: Data) -> DBusValue { .array(elementSignature: "y", data.map(DBusValue.byte)) }

    /// The bytes of an `ay` value.
    static func bytes(_ value: DBusValue) -> Data? {
        guard case .array("y", let elements) = value else { return nil }
        var data = Data(capacity: elements.count)
        for element in elements {
            guard case .byte(let byte) = element else { return nil }
            data.append(byte)
        }
        return data
    }
}
