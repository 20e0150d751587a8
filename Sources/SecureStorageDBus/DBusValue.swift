/// One D-Bus value, typed as on the wire (D-Bus specification, "Type System").
///
/// Containers carry their element signatures so that an empty array or dictionary still has a
/// type. A dictionary is an array of dict entries (`a{kv}`), kept in wire order: D-Bus does not
/// forbid equal keys, and a receiver decides what they mean.
package indirect enum DBusValue: Sendable, Hashable {
    /// `y`
    case byte(UInt8)
    /// `b`
    case boolean(Bool)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `s`: valid UTF-8 without NUL.
    case string(String)
    /// `o`: a valid object path.
    case objectPath(String)
    /// `g`: a valid signature.
    case signature(String)
    /// `h`: an index into the message's file descriptors.
    case unixFD(UInt32)
    /// `a` + element signature: elements all of that signature.
    case array(elementSignature: String, [DBusValue])
    /// `a{kv}`: entries in wire order.
    case dictionary(keySignature: String, valueSignature: String, [DBusDictionaryEntry])
    /// `(…)`: at least one field.
    case structure([DBusValue])
    /// `v`: any single complete type.
    case variant(DBusValue)

    /// This value's complete type signature.
    package var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }
}

/// One `{key value}` entry of a ``DBusValue/dictionary(keySignature:valueSignature:_:)``.
package struct DBusDictionaryEntry: Sendable, Hashable {
    /// A basic-typed key.
    package var key: DBusValue
    /// Any single complete type.
    package var value: DBusValue

    /// An entry.
    package init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}

extension DBusValue {
    /// `a{ss}` from a Swift dictionary, keys sorted so that the bytes are the same every time.
    package static func stringDictionary(_ dictionary: [String: String]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "s",
            dictionary.sorted { $0.key < $1.key }.map {
                DBusDictionaryEntry(key: .string($0.key), value: .string($0.value))
            })
    }

    /// `ao` from object paths.
    package static func objectPaths(_ paths: [String]) -> DBusValue {
        .array(elementSignature: "o", paths.map(DBusValue.objectPath))
    }

    /// The string of `s`, `o` or `g`; `nil` for any other type.
    package var stringValue: String? {
        switch self {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    /// The value inside a variant, or this value.
    package var unwrappingVariant: DBusValue {
        if case .variant(let inner) = self { inner.unwrappingVariant } else { self }
    }
}
