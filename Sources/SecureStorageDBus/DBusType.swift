/// One complete D-Bus type, parsed from a signature (D-Bus specification, "Signatures").
package indirect enum DBusType: Sendable, Hashable {
    /// The fixed-width basic types: `y b n q i u x t d`.
    case byte, boolean, int16, uint16, int32, uint32, int64, uint64, double
    /// The string-like basic types `s o g`, the descriptor index `h`, and `v`.
    case string, objectPath, signature, unixFD, variant
    /// `a` + element type (not a dict entry).
    case array(DBusType)
    /// `a{kv}`: an array of dict entries.
    case dictionary(key: DBusType, value: DBusType)
    /// `(…)`: one or more fields.
    case structure([DBusType])

    /// The basic type of a signature code, if it names one (or `v`).
    init?(code: UInt8) {
        switch code {
        case UInt8(ascii: "y"): self = .byte
        case UInt8(ascii: "b"): self = .boolean
        case UInt8(ascii: "n"): self = .int16
        case UInt8(ascii: "q"): self = .uint16
        case UInt8(ascii: "i"): self = .int32
        case UInt8(ascii: "u"): self = .uint32
        case UInt8(ascii: "x"): self = .int64
        case UInt8(ascii: "t"): self = .uint64
        case UInt8(ascii: "d"): self = .double
        case UInt8(ascii: "s"): self = .string
        case UInt8(ascii: "o"): self = .objectPath
        case UInt8(ascii: "g"): self = .signature
        case UInt8(ascii: "h"): self = .unixFD
        case UInt8(ascii: "v"): self = .variant
        default: return nil
        }
    }

    /// Whether this is a basic type (a dict entry's key must be one).
    var isBasic: Bool {
        switch self {
        case .variant, .array, .dictionary, .structure: false
        default: true
        }
    }

    /// The boundary a value of this type starts on.
    var alignment: Int {
        switch self {
        case .byte, .signature, .variant: 1
        case .int16, .uint16: 2
        case .boolean, .int32, .uint32, .string, .objectPath, .unixFD, .array, .dictionary: 4
        case .int64, .uint64, .double, .structure: 8
        }
    }

    /// This type's signature.
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
        case .variant: "v"
        case .array(let element): "a" + element.signature
        case .dictionary(let key, let value): "a{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }
}
