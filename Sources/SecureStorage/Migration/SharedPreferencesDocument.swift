import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An Android `SharedPreferences` file (`shared_prefs/<name>.xml`): a `<map>` of `<string>`,
/// `<int>`, `<long>`, `<boolean>`, `<float>` and `<set>` elements, written back in the format
/// Android's `XmlUtils` writes.
struct SharedPreferencesDocument: SourceDocument {
    let entries: [SourceEntry]
    /// Every element in file order, including ones that are not migrated (`<null>`), with the
    /// raw `value` attribute of numbers and booleans, written back verbatim.
    private let elements: [(name: String, tag: String, value: SourceValue?, raw: String?)]

    init(_ contents: Data, file: String) throws(MigrationError) {
        let reader = Reader()
        let parser = XMLParser(data: contents)
        parser.delegate = reader
        // Some XMLParser implementations recover from errors and still return true: check both.
        guard parser.parse(), parser.parserError == nil, reader.failure == nil else {
            let reason =
                reader.failure ?? parser.parserError.map {
                    "not well-formed XML (parser error \(($0 as NSError).code))"
                } ?? "not well-formed XML"
            throw .malformedSource(
                file: file, position: reader.failurePosition ?? "\(parser.lineNumber):\(parser.columnNumber)",
                reason: reason)
        }
        guard reader.sawMap else {
            throw .unsupportedSource(file: file, reason: "the XML has no <map> root, so it is not SharedPreferences")
        }
        if let unclosed = reader.unclosed {
            throw .malformedSource(
                file: file, position: "\(parser.lineNumber):\(parser.columnNumber)",
                reason: "<\(unclosed)> is not closed")
        }
        elements = reader.elements
        entries = elements.compactMap { element in element.value.map { SourceEntry(key: element.name, value: $0) } }
    }

    func removing(_ keys: Set<String>) throws -> Data {
        var lines = ["<?xml version='1.0' encoding='utf-8' standalone='yes' ?>", "<map>"]
        for element in elements where !keys.contains(element.name) {
            let name = Self.escape(element.name)
            switch element.value {
            case .string(let text): lines.append("    <string name=\"\(name)\">\(Self.escape(text))</string>")
            case .bool, .integer, .double:
                lines.append("    <\(element.tag) name=\"\(name)\" value=\"\(Self.escape(element.raw ?? ""))\" />")
            case .strings(let texts):
                lines.append("    <set name=\"\(name)\">")
                lines += texts.map { "        <string>\(Self.escape($0))</string>" }
                lines.append("    </set>")
            case .data, nil: lines.append("    <null name=\"\(name)\" />")
            }
        }
        lines.append("</map>")
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;").replacingOccurrences(of: "\r", with: "&#13;")
    }

    /// Collects the elements of `<map>`; records the first problem as `failure` and stops.
    private final class Reader: NSObject, XMLParserDelegate {
        var elements: [(name: String, tag: String, value: SourceValue?, raw: String?)] = []
        var failure: String?
        var sawMap = false
        private var open: (name: String, tag: String)?
        private var text = ""
        private var set: [String]?
        private var inSetString = false

        func parser(
            _ parser: XMLParser, didStartElement tag: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            func fail(_ reason: String) {
                failure = reason
                failurePosition = "\(parser.lineNumber):\(parser.columnNumber)"
                parser.abortParsing()
            }
            if tag == "map" {
                sawMap = true
                return
            }
            if set != nil {
                guard tag == "string" else { return fail("<\(tag)> inside a <set>; only <string> is allowed") }
                inSetString = true
                text = ""
                return
            }
            guard sawMap, open == nil else {
                return fail("<\(tag)> is not inside <map> or is nested in another element")
            }
            guard let name = attributes["name"] else { return fail("<\(tag)> has no name attribute") }
            switch tag {
            case "string":
                open = (name, tag)
                text = ""
            case "set":
                open = (name, tag)
                set = []
            case "null": elements.append((name, tag, nil, nil))
            case "int", "long", "boolean", "float":
                guard let raw = attributes["value"] else {
                    return fail("<\(tag) name=\"\(name)\"> has no value attribute")
                }
                let value: SourceValue? =
                    switch tag {
                    case "boolean": raw == "true" ? .bool(true) : raw == "false" ? .bool(false) : nil
                    case "float": Double(raw).map(SourceValue.double)
                    default: Int64(raw).map(SourceValue.integer)
                    }
                guard let value else { return fail("<\(tag) name=\"\(name)\"> has a value that is not a \(tag)") }
                elements.append((name, tag, value, raw))
            default:
                fail("<\(tag)> is not a SharedPreferences element")
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, foundCDATA block: Data) { text += String(decoding: block, as: UTF8.self) }

        /// Where the first error was seen, as `line:column`.
        var failurePosition: String?

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if failurePosition == nil { failurePosition = "\(parser.lineNumber):\(parser.columnNumber)" }
        }

        /// The element left open at the end, if any (some XML parsers recover from a missing end tag).
        var unclosed: String? { open.map { "\($0.tag) name=\"\($0.name)\"" } }

        func parser(_ parser: XMLParser, didEndElement tag: String, namespaceURI: String?, qualifiedName: String?) {
            if let element = open, !inSetString, tag != element.tag {
                failure = "</\(tag)> closes <\(element.tag) name=\"\(element.name)\">"
                parser.abortParsing()
                return
            }
            if inSetString {
                set?.append(text)
                inSetString = false
            } else if let element = open, tag == element.tag {
                elements.append((element.name, tag, tag == "set" ? .strings(set ?? []) : .string(text), nil))
                open = nil
                set = nil
            }
        }
    }
}
