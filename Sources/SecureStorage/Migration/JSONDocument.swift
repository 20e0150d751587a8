import Foundation

/// A JSON file, flat or nested. Every string, number and boolean leaf is an entry addressed by
/// its path: `token`, `auth.refresh`, `accounts[0].password`; a key containing `.`, `[`, `]` or
/// `"` is written `["a.b"]`, so two leaves never share a path. Removing entries rewrites the
/// document without them (pretty-printed if the original spanned several lines); an array
/// element becomes `null`, so the elements after it keep their positions.
struct JSONDocument: SourceDocument {
    private let root: Any
    private let pretty: Bool
    let entries: [SourceEntry]

    init(_ contents: Data, file: String) throws(MigrationError) {
        do { root = try JSONSerialization.jsonObject(with: contents, options: [.fragmentsAllowed]) } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "not valid JSON"
            throw .malformedSource(file: file, position: Self.position(in: detail), reason: detail)
        }
        guard root is [String: Any] || root is [Any] else {
            throw .unsupportedSource(file: file, reason: "the JSON document is a single value, not an object or array")
        }
        pretty = contents.contains(UInt8(ascii: "\n"))
        var entries: [SourceEntry] = []
        Self.collect(root, path: "", into: &entries)
        self.entries = entries
    }

    func removing(_ keys: Set<String>) throws -> Data {
        let pruned = Self.prune(root, path: "", removing: keys)
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        if pretty { options.insert(.prettyPrinted) }
        var data = try JSONSerialization.data(withJSONObject: pruned, options: options)
        if pretty { data.append(UInt8(ascii: "\n")) }
        return data
    }

    private static func child(_ path: String, key: String) -> String {
        if key.isEmpty || key.contains(where: { ".[]\"".contains($0) }) {
            return
                "\(path)[\"\(key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\"]"
        }
        return path.isEmpty ? key : "\(path).\(key)"
    }

    private static func collect(_ node: Any, path: String, into entries: inout [SourceEntry]) {
        switch node {
        case let object as [String: Any]:
            for key in object.keys.sorted() { collect(object[key]!, path: child(path, key: key), into: &entries) }
        case let array as [Any]:
            for (index, element) in array.enumerated() { collect(element, path: "\(path)[\(index)]", into: &entries) }
        default:
            if let value = SourceValue.scalar(node) { entries.append(SourceEntry(key: path, value: value)) }
        }
    }

    private static func prune(_ node: Any, path: String, removing keys: Set<String>) -> Any {
        switch node {
        case let object as [String: Any]:
            var result: [String: Any] = [:]
            for (key, value) in object where !keys.contains(child(path, key: key)) {
                result[key] = prune(value, path: child(path, key: key), removing: keys)
            }
            return result
        case let array as [Any]:
            return array.enumerated().map { index, element -> Any in
                keys.contains("\(path)[\(index)]")
                    ? NSNull() : prune(element, path: "\(path)[\(index)]", removing: keys)
            }
        default:
            return node
        }
    }

    private static func position(in detail: String) -> String {
        guard let range = detail.range(of: #"(line|character) \d+"#, options: .regularExpression) else { return "1" }
        return String(detail[range])
    }
}
