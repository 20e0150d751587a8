import Foundation

/// A `UserDefaults` property list (XML or binary) with a dictionary at the top, as
/// `Library/Preferences/<bundle-id>.plist` is. Nested dictionaries and dates are left alone.
struct PropertyListDocument: SourceDocument {
    private let root: [String: Any]
    private let format: PropertyListSerialization.PropertyListFormat
    let entries: [SourceEntry]

    init(_ contents: Data, file: String) throws(MigrationError) {
        var format = PropertyListSerialization.PropertyListFormat.xml
        let object: Any
        do { object = try PropertyListSerialization.propertyList(from: contents, options: [], format: &format) } catch {
            let detail =
                (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "not a valid property list"
            throw .malformedSource(file: file, position: Self.position(in: detail), reason: detail)
        }
        guard let root = object as? [String: Any] else {
            throw .unsupportedSource(
                file: file, reason: "the property list's top level is not a dictionary, so it is not UserDefaults")
        }
        self.root = root
        self.format = format
        entries = root.keys.sorted().compactMap { key in Self.value(root[key]!).map { SourceEntry(key: key, value: $0) }
        }
    }

    func removing(_ keys: Set<String>) throws -> Data {
        try PropertyListSerialization.data(
            fromPropertyList: root.filter { !keys.contains($0.key) }, format: format, options: 0)
    }

    /// The migratable value of a property-list object, or `nil` for dictionaries, dates and mixed arrays.
    static func value(_ object: Any) -> SourceValue? {
        if let scalar = SourceValue.scalar(object) { return scalar }
        switch object {
        case let bytes as Data: return .data(bytes)
        case let array as [Any]:
            let texts = array.compactMap { $0 as? String }
            return texts.count == array.count ? .strings(texts) : nil
        default: return nil
        }
    }

    private static func position(in detail: String) -> String {
        guard let range = detail.range(of: #"line \d+"#, options: .regularExpression) else { return "1" }
        return String(detail[range].dropFirst(5))
    }
}
