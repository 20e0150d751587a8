import Foundation

/// The textual keyring format gnome-keyring-daemon writes for a keyring whose password is empty
/// (facts from its `gkm-secret-textual.c`; this reader is written here): a GLib key file whose
/// first group is `[keyring]` (display-name, ctime, mtime, lock settings), then per item a group
/// named by its id (item-type, display-name, `secret` as text or `binary-secret` in hex, mtime,
/// ctime), its attributes in groups `ID:attributeN` (name, type `string` or `uint32`, value) and
/// its access-control entries in groups `ID:aclN` (ignored here). Values use the key file's
/// escapes (`\s \n \t \r \\`).
enum GnomeKeyringTextualFormat {
    /// Whether `contents` can be a textual keyring: UTF-8 text whose first group is `[keyring]`
    /// (comments and blank lines may come first).
    static func looksTextual(_ contents: Data) -> Bool {
        // Decoded leniently: the prefix may end inside a character; the parser validates the whole.
        let text = String(decoding: contents.prefix(4096), as: UTF8.self)
        let first = text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && !$0.hasPrefix("#") }
        return first == "[keyring]"
    }

    /// One group: its keys' raw (still escaped) values, and the line it starts on.
    private struct Group {
        let line: Int
        var values: [String: (line: Int, raw: String)] = [:]
    }

    static func parse(_ contents: Data, keyringName: String) throws(KeychainError) -> GnomeKeyring {
        func damaged(_ what: String) -> KeychainError { .gnomeKeyringDamaged(keyring: keyringName, what: what) }
        guard let text = String(data: contents, encoding: .utf8) else { throw damaged("it is not valid UTF-8 text") }
        var groups: [String: Group] = [:]
        var order: [String] = []
        var current: String?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if trimmed.hasPrefix("[") {
                guard trimmed.hasSuffix("]"), trimmed.count >= 3 else {
                    throw damaged("line \(lineNumber) is not a group")
                }
                let name = String(trimmed.dropFirst().dropLast())
                guard groups[name] == nil else { throw damaged("line \(lineNumber) repeats the group \(quoted(name))") }
                groups[name] = Group(line: lineNumber)
                order.append(name)
                current = name
                continue
            }
            guard let group = current else { throw damaged("line \(lineNumber) comes before the first group") }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw damaged("line \(lineNumber) is neither a group nor a key=value pair")
            }
            let key = String(trimmed[..<equals]).trimmingCharacters(in: .whitespaces)
            let value = String(trimmed[trimmed.index(after: equals)...].drop { $0 == " " || $0 == "\t" })
            guard !key.isEmpty else { throw damaged("line \(lineNumber) has an empty key") }
            if key.contains("[") { continue }  // a translation (key[locale]): gnome-keyring reads none
            guard groups[group]?.values.updateValue((lineNumber, value), forKey: key) == nil else {
                throw damaged("line \(lineNumber) repeats the key \(quoted(key))")
            }
        }
        guard order.first == "keyring" else { throw damaged("its first group is not [keyring]") }
        func string(_ group: String, _ key: String) throws(KeychainError) -> String? {
            guard let entry = groups[group]?.values[key] else { return nil }
            guard let value = unescape(entry.raw) else {
                throw damaged("line \(entry.line) has an invalid escape sequence")
            }
            return value
        }
        var attributesByItem: [String: [(index: Int, group: String)]] = [:]
        for name in order where name.contains(":") {
            let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw damaged("group [\(quoted(name))] names no item") }
            if parts[1].hasPrefix("attribute"), let number = Int(parts[1].dropFirst("attribute".count)) {
                attributesByItem[parts[0], default: []].append((number, name))
            }  // ID:aclN and anything else: not needed
        }
        var items: [GnomeKeyring.Item] = []
        for name in order where name != "keyring" && !name.contains(":") {
            guard let id = UInt32(name) else {
                throw damaged("the item group [\(quoted(name))] on line \(groups[name]!.line) is not a number")
            }
            let secret: Data
            if let text = try string(name, "secret") {
                secret = Data(text.utf8)
            } else if let hex = try string(name, "binary-secret") {
                guard let bytes = Data(hexadecimal: Substring(hex)) else {
                    throw damaged("item \(id)'s binary-secret is not hexadecimal")
                }
                secret = bytes
            } else {
                secret = Data()
            }
            var attributes: [String: String] = [:]
            for (_, group) in (attributesByItem[name] ?? []).sorted(by: { $0.index < $1.index }) {
                guard let attribute = try string(group, "name") else { continue }  // gnome-keyring skips these too
                let value: String
                if try string(group, "type") == "uint32" {
                    guard let raw = try string(group, "value"), let number = UInt64(raw) else {
                        throw damaged("the uint32 attribute in [\(quoted(group))] has no decimal value")
                    }
                    value = String(UInt32(truncatingIfNeeded: number))
                    // As the daemon serves it: the empty marker that makes it a uint32 again.
                    attributes["gkr:compat:uint32:" + attribute] = attributes["gkr:compat:uint32:" + attribute] ?? ""
                } else {
                    value = try string(group, "value") ?? ""
                }
                guard attributes.updateValue(value, forKey: attribute) == nil else {
                    throw damaged("item \(id) has the attribute \(quoted(attribute)) twice")
                }
            }
            let type = try string(name, "item-type").flatMap { UInt32($0) } ?? 0
            items.append(
                GnomeKeyring.Item(
                    id: id, label: try string(name, "display-name") ?? "", secret: secret, attributes: attributes,
                    itemType: type))
        }
        return GnomeKeyring(displayName: try string("keyring", "display-name") ?? "", items: items, wasTextual: true)
    }

    /// A group or key name for a message: printable ASCII kept, the rest escaped, at most 40 characters.
    private static func quoted(_ name: String) -> String {
        let escaped = name.unicodeScalars.prefix(40).map { scalar in
            (0x20..<0x7F).contains(scalar.value) ? String(scalar) : "\\u{\(String(scalar.value, radix: 16))}"
        }
        return escaped.joined() + (name.unicodeScalars.count > 40 ? "…" : "")
    }

    /// The key file's escapes undone; nil for an unknown escape or a trailing backslash.
    private static func unescape(_ raw: String) -> String? {
        guard raw.contains("\\") else { return raw }
        var result = ""
        var iterator = raw.makeIterator()
        while let character = iterator.next() {
            guard character == "\\" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "s": result.append(" ")
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "\\": result.append("\\")
            default: return nil
            }
        }
        return result
    }
}
