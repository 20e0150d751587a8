import Foundation

/// A `.env` file: `KEY=value` lines with an optional `export ` prefix, `#` comments, unquoted
/// values (an inline ` #` starts a comment), single-quoted values (literal) and double-quoted
/// values (escapes `\n \r \t \" \\ \$`, may span lines). Removing keys drops exactly their lines;
/// every other line stays byte for byte.
struct DotEnvDocument: SourceDocument {
    let entries: [SourceEntry]
    private let lines: [Substring]
    private let trailingNewline: Bool
    /// The lines (indexes into `lines`) each key's last assignment occupies.
    private let spans: [String: [ClosedRange<Int>]]

    init(_ contents: Data, file: String) throws(MigrationError) {
        guard let text = String(data: contents, encoding: .utf8) else {
            throw .malformedSource(file: file, position: "1", reason: "the file is not UTF-8 text")
        }
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        trailingNewline = text.hasSuffix("\n")
        var values: [(String, String)] = []
        var spans: [String: [ClosedRange<Int>]] = [:]
        var index = 0
        while index < lines.count {
            let start = index
            let line = lines[index].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\r"])
            index += 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            var rest = Substring(line)
            if rest.hasPrefix("export ") { rest = rest.dropFirst(7).drop(while: { $0 == " " }) }
            guard let equals = rest.firstIndex(of: "=") else {
                throw .malformedSource(file: file, position: "\(start + 1)", reason: "expected KEY=value")
            }
            let key = rest[..<equals].trimmingCharacters(in: .whitespaces)
            guard let first = key.first, first == "_" || first.isLetter,
                  key.allSatisfy({ $0 == "_" || $0 == "." || $0 == "-" || $0.isLetter || $0.isNumber }) else {
                throw .malformedSource(file: file, position: "\(start + 1)", reason: "'\(key.prefix(40))' is not a variable name")
            }
            var raw = rest[rest.index(after: equals)...].drop(while: { $0 == " " || $0 == "\t" })
            let value: String
            switch raw.first {
            case "'":
                guard let end = raw.dropFirst().firstIndex(of: "'") else {
                    throw .malformedSource(file: file, position: "\(start + 1)", reason: "unterminated single quote")
                }
                value = String(raw[raw.index(after: raw.startIndex)..<end])
            case "\"":
                var collected = String(raw.dropFirst())
                var closed: String?
                while true {
                    if let (body, _) = Self.closingQuote(in: collected) { closed = body; break }
                    guard index < lines.count else { break }
                    collected += "\n" + lines[index]
                    index += 1
                }
                guard let body = closed else {
                    throw .malformedSource(file: file, position: "\(start + 1)", reason: "unterminated double quote")
                }
                value = Self.unescape(body)
            default:
                if let comment = raw.range(of: " #") { raw = raw[..<comment.lowerBound] }
                value = raw.trimmingCharacters(in: .whitespaces)
            }
            values.removeAll { $0.0 == key }
            values.append((key, value))
            spans[key, default: []].append(start...(index - 1))
        }
        entries = values.map { SourceEntry(key: $0.0, value: .string($0.1)) }
        self.spans = spans
    }

    func removing(_ keys: Set<String>) throws -> Data {
        let dropped = Set(keys.flatMap { spans[$0] ?? [] }.flatMap { Array($0) })
        var kept = lines.indices.filter { !dropped.contains($0) }.map { lines[$0] }
        if trailingNewline && kept.last != "" { kept.append("") }
        return Data(kept.joined(separator: "\n").utf8)
    }

    /// The text before the first unescaped `"`, or `nil` when there is none yet.
    private static func closingQuote(in text: String) -> (String, String.Index)? {
        var escaped = false
        for index in text.indices {
            let character = text[index]
            if escaped { escaped = false; continue }
            if character == "\\" { escaped = true } else if character == "\"" { return (String(text[..<index]), index) }
        }
        return nil
    }

    private static func unescape(_ text: String) -> String {
        var result = ""
        var escaped = false
        for character in text {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
