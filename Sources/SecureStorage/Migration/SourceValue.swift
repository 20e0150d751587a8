import Foundation

/// A value read from an insecure store, typed as the store typed it.
public enum SourceValue: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Text.
    case string(String)
    /// Bytes (property-list `<data>`).
    case data(Data)
    /// An integer (`<integer>`, SharedPreferences `<int>`/`<long>`, a JSON integer).
    case integer(Int64)
    /// A floating-point number.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// A set or array of strings (SharedPreferences `<set>`, a property-list array of strings).
    case strings([String])

    /// `"<type> (redacted)"`: the value is never printed.
    public var description: String { "\(typeName) (redacted)" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The type only, so `dump(_:)` never prints the value.
    public var customMirror: Mirror { Mirror(self, children: ["type": typeName], displayStyle: .enum) }

    /// The type's name, for plans and errors (never the value).
    public var typeName: String {
        switch self {
        case .string: "string"
        case .data: "data"
        case .integer: "integer"
        case .double: "double"
        case .bool: "bool"
        case .strings: "string set"
        }
    }

    /// A string, number or boolean decoded by Foundation (plists, JSON): booleans come as `Bool`
    /// on Linux and as `NSNumber` of type `c` on Apple platforms; `nil` for anything else.
    static func scalar(_ object: Any) -> SourceValue? {
        if type(of: object) == Bool.self, let flag = object as? Bool { return .bool(flag) }
        switch object {
        case let text as String: return .string(text)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": return .bool(number.boolValue)
            case "f", "d": return .double(number.doubleValue)
            default: return .integer(number.int64Value)
            }
        default: return nil
        }
    }

    /// How the value is stored in the keychain: strings as text, bytes as bytes, the rest as
    /// JSON, so the typed accessors (`string(for:)`, `integer(for:)`, `value([String].self, …)`) read it back.
    var storedValue: StoredValue {
        switch self {
        case .string(let text): StoredValue(data: Data(text.utf8), kind: .string)
        case .data(let bytes): StoredValue(data: bytes, kind: .data)
        case .integer(let number): StoredValue(data: Data(String(number).utf8), kind: .json)
        case .double(let number): StoredValue(data: (try? JSONEncoder().encode(number)) ?? Data(), kind: .json)
        case .bool(let flag): StoredValue(data: Data((flag ? "true" : "false").utf8), kind: .json)
        case .strings(let texts): StoredValue(data: (try? JSONEncoder().encode(texts)) ?? Data(), kind: .json)
        }
    }
}

/// One key of a source and its value. `description` never shows the value.
public struct SourceEntry: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable
{
    /// The key: a plist or SharedPreferences key, an environment variable, or a JSON path
    /// such as `auth.tokens[0].secret`.
    public let key: String
    /// The value.
    public let value: SourceValue

    /// `"<key> (<type>)"`.
    public var description: String { "\(key) (\(value.typeName))" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The key and the value's type, so `dump(_:)` never prints the value.
    public var customMirror: Mirror {
        Mirror(self, children: ["key": key, "type": value.typeName], displayStyle: .struct)
    }
}
