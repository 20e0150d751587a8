import Configuration
import Foundation

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension ConfigContent {
    /// The item's bytes as a value of `type`, or `nil` when they are not one.
    ///
    /// - `bytes`: the bytes as stored (binary secrets, keys).
    /// - `string`: the bytes as UTF-8 text; anything else is refused rather than repaired.
    /// - `int`, `double`, `bool`: the text, trimmed of white space (`true`/`false`, `yes`/`no`,
    ///   `1`/`0` for booleans), as the values `SecureStorage.set(8080, for:)` writes.
    /// - arrays: the text split on commas, each element trimmed, as `EnvironmentVariablesProvider`
    ///   reads lists; `byteChunkArray` is the stored bytes as its one chunk.
    init?(keychainData data: Data, as type: ConfigType) {
        if type == .bytes {
            self = .bytes(Array(data))
            return
        }
        if type == .byteChunkArray {
            self = .byteChunkArray([Array(data)])
            return
        }
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        let scalar = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let elements =
            scalar.isEmpty
            ? []
            : scalar.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
        switch type {
        case .string: self = .string(text)
        case .int:
            guard let value = Int(scalar) else { return nil }
            self = .int(value)
        case .double:
            guard let value = Double(scalar) else { return nil }
            self = .double(value)
        case .bool:
            guard let value = Self.bool(scalar) else { return nil }
            self = .bool(value)
        case .stringArray: self = .stringArray(elements)
        case .intArray:
            let values = elements.compactMap { Int($0) }
            guard values.count == elements.count else { return nil }
            self = .intArray(values)
        case .doubleArray:
            let values = elements.compactMap { Double($0) }
            guard values.count == elements.count else { return nil }
            self = .doubleArray(values)
        case .boolArray:
            let values = elements.compactMap(Self.bool)
            guard values.count == elements.count else { return nil }
            self = .boolArray(values)
        case .bytes, .byteChunkArray: return nil  // handled above
        }
    }

    private static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "1": true
        case "false", "no", "0": false
        default: nil
        }
    }
}
