import Foundation

/// How an attribute's values are stored, coerced and compared.
public enum AttributeKind: Sendable, Hashable {
    /// Strings and data kept as given (a string stays a string); compared by their bytes, so
    /// `"abc"` and `Data("abc".utf8)` match and collide. Numbers are accepted too.
    case blob
    /// Bytes: strings become their UTF-8 bytes, numbers a 4-byte little-endian int32.
    case data
    /// Integers: booleans become 0/1, decimal strings become numbers, other strings stay strings.
    case number
    /// Dates only.
    case date
    /// Text: data becomes its UTF-8 text.
    case string
    /// One of the ``Accessibility`` raw values.
    case accessibility

    static func of(_ key: AttributeKey) -> AttributeKind {
        switch key.rawValue {
        case "agrp", "vwht", "tkid", "ggrp": .string
        case "pdmn": .accessibility
        case "cdat", "mdat", "sdat", "edat": .date
        case "subj", "issr", "slnr", "skid", "pkhh", "klbl", "sha1", "accc": .data
        case "sync", "tomb", "crtr", "type", "scrp", "invi", "nega", "cusi", "ptcl", "port",
            "ctyp", "cenc", "kcls", "bsiz", "esiz", "perm", "priv", "modi", "sens", "asen",
            "extr", "next", "encr", "decr", "drve", "sign", "vrfy", "snrc", "vyrc", "wrap", "unwp":
            .number
        default: .blob
        }
    }

    /// Coerces a value to this kind, or explains why it cannot be (an `errSecParam` situation).
    func coerce(_ value: AttributeValue, for key: AttributeKey) throws(KeychainError) -> AttributeValue {
        switch (self, value) {
        case (.blob, .string), (.blob, .data), (.blob, .number):
            return value
        case (.data, .data):
            return value
        case (.data, .string(let text)):
            return .data(Data(text.utf8))
        case (.data, .number(let number)):
            return .data(withUnsafeBytes(of: Int32(truncatingIfNeeded: number).littleEndian) { Data($0) })
        case (.number, .number):
            return value
        case (.number, .bool(let flag)):
            return .number(flag ? 1 : 0)
        case (.number, .string(let text)):
            if let number = Int64(text), String(number) == text { return .number(number) }
            return value
        case (.date, .date):
            return value
        case (.string, .string):
            return value
        case (.string, .data(let bytes)):
            guard let text = String(data: bytes, encoding: .utf8) else { break }
            return .string(text)
        case (.accessibility, .string(let raw)):
            guard Accessibility(rawValue: raw) != nil else {
                throw KeychainError.invalidAccessibilityValue(raw: raw)
            }
            return value
        default:
            break
        }
        throw KeychainError.attributeValueOfWrongType(
            key: key, expectation: self.expectation, valueType: value.typeName)
    }

    private var expectation: String {
        switch self {
        case .blob: "expects a string or data"
        case .data: "expects data"
        case .number: "expects a number"
        case .date: "expects a date"
        case .string: "expects a string"
        case .accessibility: "expects a kSecAttrAccessible… constant"
        }
    }
}
