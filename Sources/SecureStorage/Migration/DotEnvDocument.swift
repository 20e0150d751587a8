import Foundation

/// A `.env` file: `KEY=value` lines (LF or CRLF) with an optional `export` prefix, `#` comments,
/// unquoted values (a `#` after whitespace starts a comment), single-quoted values (literal) and
/// double-quoted values (escapes `\n \r \t \" \\ \$`, may span lines); `export KEY` alone is
/// allowed and holds no value. Removing keys drops exactly their lines; every other line stays
/// byte for byte. Errors name the line, never its text (it may hold a secret).
struct DotEnvDocument: SourceDocument {
    let entries: [SourceEntry]
    private let lines: [String]
    private let trailingNewline: Bool
    /// The lines (indexes into `lines`) each key's last assignment occupies.
    private let spans: [String: [ClosedRange<Int>]]

    init(_ contents: Data, file: String) throws(MigrationError) {
        guard let text = String(data: contents, encoding: .utf8) else {
            throw .malformedSource(file: file, position: "1", reason: "the file is not UTF-8 text")
        }
        // Split on LF scalars: in Swift "\r\n" is one Character, so a Character split would see a
        // CRLF file as a single line. Each line keeps its "\r" so kept lines stay byte for byte.
        lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
            String(String.UnicodeScalarView($0))
        }
        trailingNewline = contents.last == UInt8(ascii: "\n")
        var values: [(String, String)] = []
        var spans: [String: [ClosedRange<Int>]] = [:]
        var index = 0
        while index < lines.count {
            let start = index
            let line = lines[index].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\r"])
            index += 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            var rest = Substring(line)
            if rest.hasPrefix("export"), let next = rest.dropFirst(6).first, next == " " || next == "\t" {
                rest = rest.dropFirst(6).drop(while: { $0 == " " || $0 == "\t" })
                if !rest.contains("=") && Self.isName(rest) { continue }  // `export KEY`: no value here
            }
            guard let equals = rest.firstIndex(of: "=") else {
                throw .malformedSource(
                    file: file, position: "\(start + 1)",
                    reason: "expected KEY=value (a value on several lines must be quoted)")
            }
            let key = rest[..<equals].trimmingCharacters(in: .whitespaces)
            guard Self.isName(Substring(key)) else {
                throw .malformedSource(
                    file: file, position: "\(start + 1)",
                    reason: "the text before '=' is not a variable name (a value on several lines must be quoted)")
            }
            var raw = rest[rest.index(after: equals)...].drop(while: { $0 == " " || $0 == "\t" })
            let value: String
            switch raw.first {
            case "'":
                guard let end = raw.dropFirst().firstIndex(of: "'") else {
                    throw .malformedSource(file: file, position: "\(start + 1)", reason: "unterminated single quote")
                }
                value = String(raw[raw.index(after: raw.startIndex)..<end])
                try Self.requireOnlyComment(after: raw[raw.index(after: end)...], file: file, line: start + 1)
            case "\"":
                var collected = String(raw.dropFirst())
                var closed: (String, String)?
                while true {
                    if let (body, end) = Self.closingQuote(in: collected) {
                        closed = (body, String(collected[collected.index(after: end)...]))
                        break
                    }
                    guard index < lines.count else { break }
                    collected += "\n" + lines[index].trimmingCharacters(in: ["\r"])
                    index += 1
                }
                guard let (body, after) = closed else {
                    throw .malformedSource(file: file, position: "\(start + 1)", reason: "unterminated double quote")
                }
                try Self.requireOnlyComment(after: Substring(after), file: file, line: index)
                value = Self.unescape(body)
            case "#":
                value = ""
            default:
                if let comment = raw.firstIndex(where: { $0 == "#" }), comment > raw.startIndex,
                    let before = raw.index(comment, offsetBy: -1, limitedBy: raw.startIndex),
                    raw[before] == " " || raw[before] == "\t"
                {
                    raw = raw[..<comment]
                }
                value = raw.trimmingCharacters(in: .whitespaces)
                if value.hasPrefix("-----BEGIN") && !value.contains("-----END") {
                    throw .malformedSource(
                        file: file, position: "\(start + 1)",
                        reason: "a PEM value spanning several lines must be in double quotes")
                }
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

    private static func isName(_ text: Substring) -> Bool {
        guard let first = text.first, first == "_" || first.isLetter else { return false }
        return text.allSatisfy { $0 == "_" || $0 == "." || $0 == "-" || $0.isLetter || $0.isNumber }
    }

    /// After a closing quote only spaces and a `#` comment may follow.
    private static func requireOnlyComment(after text: Substring, file: String, line: Int) throws(MigrationError) {
        let rest = text.trimmingCharacters(in: .whitespaces)
        guard rest.isEmpty || rest.hasPrefix("#") else {
            throw .malformedSource(file: file, position: "\(line)", reason: "unexpected text after the closing quote")
        }
    }

    /// The text before the first unescaped `"`, or `nil` when there is none yet.
    private static func closingQuote(in text: String) -> (String, String.Index)? {
        var escaped = false
        for index in text.indices {
            let character = text[index]
            if escaped {
                escaped = false
                continue
            }
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
