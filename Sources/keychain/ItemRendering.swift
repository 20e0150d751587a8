import Foundation
import KeychainCore

/// A JSON value, rendered with sorted keys.
enum JSONValue: Encodable {
    case string(String)
    case number(Int64)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}

/// JSON output for `--json`: attributes by raw name; bytes as `{"base64": "…"}` (never a string,
/// so a text value that starts with "base64:" cannot be mistaken for bytes), dates in ISO 8601.
/// Values are exact; the characters a terminal would act on are `\u` escapes.
enum JSONText {
    static func render(_ object: [String: JSONValue]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return escapingUnsafeCharacters(String(decoding: try encoder.encode(object), as: UTF8.self))
    }

    /// `json` with DEL, the C1 controls (U+009B is a one-character CSI) and the bidirectional
    /// formatting characters written as `\u` escapes, which JSONEncoder leaves raw (it escapes
    /// C0 itself). They can only stand inside strings, where the escape is the same value.
    static func escapingUnsafeCharacters(_ json: String) -> String {
        var out = ""
        for scalar in json.unicodeScalars {
            if scalar.value >= 0x20 && PrintableText.isUnsafe(scalar) {
                out += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func item(_ item: FoundItem) -> [String: JSONValue] {
        [
            "class": .string(item.itemClass.rawValue),
            "persistentReference": .string(item.persistentReference.data.base64EncodedString()),
            "attributes": .object(
                Dictionary(uniqueKeysWithValues: item.attributes.map { ($0.key.rawValue, value($0.value)) }))
        ]
    }

    /// A secret as a string when it is UTF-8 text, else `{"base64": "…"}`.
    static func secret(_ data: Data) -> JSONValue {
        String(data: data, encoding: .utf8).map(JSONValue.string) ?? bytes(data)
    }

    /// Bytes as `{"base64": "…"}`.
    static func bytes(_ data: Data) -> JSONValue { .object(["base64": .string(data.base64EncodedString())]) }

    static func value(_ value: AttributeValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .data(let data): bytes(data)
        case .number(let number): .number(number)
        case .bool(let flag): .bool(flag)
        case .date(let date): .string(ISO8601DateFormatter().string(from: date))
        }
    }
}

/// Text output: one attribute per line, in the spirit of `security find-generic-password`.
/// Attributes may come from a circle member, an imported backup or a migrated file: their
/// control and bidirectional formatting characters are shown as `?` (``PrintableText``).
enum ItemText {
    static func render(_ item: FoundItem) -> String {
        var lines = ["class: \(item.itemClass.rawValue)", "attributes:"]
        for (key, value) in item.attributes.sorted(by: { $0.key < $1.key }) {
            lines.append("    \"\(PrintableText.sanitized(key.rawValue))\"<\(typeName(value))>=\(text(value))")
        }
        return lines.joined(separator: "\n")
    }

    /// A secret as `"text"` when it is printable UTF-8, else `0x…` hex (never a character a
    /// terminal would act on).
    static func secret(_ data: Data) -> String {
        if let text = String(data: data, encoding: .utf8), PrintableText.sanitized(text) == text {
            return "\"\(text)\""
        }
        return text(.data(data))
    }

    private static func typeName(_ value: AttributeValue) -> String {
        switch value {
        case .string, .data: "blob"
        case .number, .bool: "uint32"
        case .date: "timedate"
        }
    }

    static func text(_ value: AttributeValue) -> String {
        switch value {
        case .string(let text): "\"\(PrintableText.sanitized(text))\""
        case .data(let bytes): bytes.isEmpty ? "<empty>" : "0x" + bytes.map { String(format: "%02X", $0) }.joined()
        case .number(let number): "\(number)"
        case .bool(let flag): flag ? "1" : "0"
        case .date(let date): "\"\(ISO8601DateFormatter().string(from: date))\""
        }
    }
}

extension String {
    /// The string with `0`s before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
