import Foundation

/// The value of one keychain attribute.
///
/// Values are typed the way Apple's keychain stores them.
/// When an item is stored or searched, each value is coerced to its attribute's kind
/// (``AttributeKind``): for example the string `"42"` becomes the number 42 for a numeric
/// attribute, and a string account matches the same bytes given as data.
public enum AttributeValue: Sendable, Hashable {
    /// A text value (`CFString`).
    case string(String)
    /// A byte value (`CFData`).
    case data(Data)
    /// An integer value (`CFNumber`).
    case number(Int64)
    /// A point in time (`CFDate`).
    case date(Date)
    /// A boolean (`CFBoolean`); numeric attributes store it as 0 or 1.
    case bool(Bool)

    /// The value as text, when it is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value as bytes, when it is data.
    public var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The value as an integer, when it is a number or a boolean.
    public var numberValue: Int64? {
        switch self {
        case .number(let value): value
        case .bool(let value): value ? 1 : 0
        default: nil
        }
    }

    /// The value as a date, when it is one.
    public var dateValue: Date? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The value as a boolean, when it is a boolean or the number 0 or 1.
    public var boolValue: Bool? {
        switch self {
        case .bool(let value): value
        case .number(0): false
        case .number(1): true
        default: nil
        }
    }

    /// A short name of the value's type, for error messages (never the value itself).
    var typeName: String {
        switch self {
        case .string: "string"
        case .data: "data"
        case .number: "number"
        case .date: "date"
        case .bool: "boolean"
        }
    }
}

extension AttributeValue: ExpressibleByStringLiteral {
    /// Creates a string value from a literal: `.service: "api.example.com"`.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension AttributeValue: ExpressibleByIntegerLiteral {
    /// Creates a number value from a literal: `.port: 443`.
    public init(integerLiteral value: Int64) { self = .number(value) }
}

extension AttributeValue: ExpressibleByBooleanLiteral {
    /// Creates a boolean value from a literal: `.isInvisible: true`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
