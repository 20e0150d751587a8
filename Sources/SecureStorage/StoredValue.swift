import Foundation

/// A stored value's bytes and how they were written, so a read with the wrong type fails clearly.
public struct StoredValue: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable
{
    /// How the bytes encode the value.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Raw bytes (`Data`).
        case data
        /// UTF-8 text (`String`).
        case string
        /// JSON of a `Codable` value (numbers, booleans, structs…).
        case json
        /// Written by other code, without our tag.
        case untagged
    }

    /// The stored bytes.
    public let data: Data
    /// How they were written.
    public let kind: Kind

    /// Creates a stored value.
    public init(data: Data, kind: Kind) {
        self.data = data
        self.kind = kind
    }

    /// The kind and size only; never the bytes.
    public var description: String { "StoredValue(\(kind), \(data.count) bytes, redacted)" }

    /// The same as ``description``: debugger output never shows the bytes either.
    public var debugDescription: String { description }

    /// The kind and size only, so `dump(_:)` and other reflection never print the bytes.
    public var customMirror: Mirror {
        Mirror(self, children: ["kind": kind, "byteCount": data.count], displayStyle: .struct)
    }
}

extension StoredValue.Kind {
    /// The four-character code recorded in `kSecAttrType` (a number, as Apple stores it).
    var typeCode: Int64? {
        let code: String? =
            switch self {
            case .data: "SSdt"
            case .string: "SSst"
            case .json: "SSjs"
            case .untagged: nil
            }
        return code.map { $0.utf8.reduce(Int64(0)) { $0 << 8 | Int64($1) } }
    }

    /// The kind a `kSecAttrType` code names (`.untagged` for anything else).
    init(typeCode: Int64?) {
        self = Self.allCases.first { $0.typeCode != nil && $0.typeCode == typeCode } ?? .untagged
    }
}
