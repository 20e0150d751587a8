#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// Reads the values of SecItem dictionaries whatever form they arrive in on Linux: Swift values
/// (`String`, `Bool`, `Int`, `Data`, `Date`) or their Foundation classes (`NSString`, `NSNumber`,
/// `NSData`, `NSDate`), because `[String: Any] as CFDictionary` keeps some of each.
enum SecValue {
    static func string(_ value: Any) -> String? {
        if let text = value as? String { return text }
        return (value as? NSString).map { String($0) }
    }

    static func data(_ value: Any) -> Data? {
        if let bytes = value as? Data { return bytes }
        return (value as? NSData).map { Data(referencing: $0) }
    }

    /// A boolean: Swift `Bool` or a boolean `NSNumber` (`kCFBooleanTrue`), never another number.
    static func boolean(_ value: Any) -> Bool? {
        if type(of: value) == Bool.self { return value as? Bool }
        if let number = value as? NSNumber, type(of: value) is NSNumber.Type, String(cString: number.objCType) == "c" {
            return number.boolValue
        }
        return nil
    }

    /// An integer: any Swift or Foundation number that is not a boolean. Fractional numbers
    /// give `.fractional`, which the keychain's integer attributes cannot store.
    static func integer(_ value: Any) -> IntegerReading? {
        guard boolean(value) == nil, !(value is String), !(value is NSString), let number = value as? NSNumber else {
            return nil
        }
        let type = String(cString: number.objCType)
        if type == "d" || type == "f" {
            let double = number.doubleValue
            guard double.rounded() == double, let integer = Int64(exactly: double) else { return .fractional }
            return .integer(integer)
        }
        return .integer(number.int64Value)
    }

    enum IntegerReading: Equatable {
        case integer(Int64)
        case fractional
    }

    /// Whether a dictionary key is a number (Apple treats such a key as an unknown attribute).
    static func isNumber(_ value: Any) -> Bool {
        value is NSNumber && !(value is String) && !(value is NSString)
    }

    /// `kSecAttrSynchronizable`'s value: a boolean, a number or a numeric string, or
    /// `kSecAttrSynchronizableAny` (`nil` for anything else).
    static func synchronizable(_ value: Any) -> Synchronizable? {
        if string(value) == "syna" { return .any }
        if let flag = boolean(value) { return .value(flag) }
        if case .integer(let number) = integer(value) { return .value(number != 0) }
        if let text = string(value), let number = Int(text) { return .value(number != 0) }
        return nil
    }

    /// A `kSecAttrSynchronizable` setting.
    enum Synchronizable: Equatable {
        case value(Bool)
        case any
    }

    static func date(_ value: Any) -> Date? {
        if let date = value as? Date { return date }
        return (value as? NSDate).map { Date(timeIntervalSinceReferenceDate: $0.timeIntervalSinceReferenceDate) }
    }

    /// The typed value of an attribute.
    /// - Throws: `.invalidParameter` (-50) for arrays, dictionaries, null and other types.
    static func attribute(_ value: Any, key: String) throws(KeychainError) -> AttributeValue {
        if let text = string(value) { return .string(text) }
        if let bytes = data(value) { return .data(bytes) }
        if let flag = boolean(value) { return .bool(flag) }
        switch integer(value) {
        case .integer(let number): return .number(number)
        case .fractional:
            throw KeychainError.fractionalNumber(key: key)
        case nil: break
        }
        if let date = date(value) { return .date(date) }
        if let uuid = value as? UUID { return .string(uuid.uuidString) }
        if let uuid = value as? NSUUID { return .string(uuid.uuidString) }
        throw KeychainError.unsupportedValueType(key: key, type: type(of: value))
    }

    /// The Foundation object an attribute value is returned as.
    static func object(_ value: AttributeValue) -> AnyObject {
        switch value {
        case .string(let text): NSString(string: text)
        case .data(let bytes): NSData(data: bytes)
        case .number(let number): NSNumber(value: number)
        case .bool(let flag): NSNumber(value: flag)
        case .date(let date): NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        }
    }
}
#endif
