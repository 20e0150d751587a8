/// Recognises a credential a person chose (`"b@nkP@ssword123"`, `"Adm1n!"`, `"thisIsMyKey123"`)
/// in a literal that is given a credential's name, as opposed to the other strings such names
/// are given: UI text and placeholders (`"Enter your password"`, `"••••"`, `"YOUR_API_KEY"`),
/// key names (`"refresh_token"`, `"authToken"`), identifiers, paths and URLs
/// (`"com.example.token"`, `"token.json"`, `"https://…"`), localization keys
/// (`"login.password.placeholder"`) and format strings.
enum ChosenCredential {
    /// The shortest literal reported: shorter ones are rarely real passwords, often UI glyphs.
    static let minimumLength = 6

    /// Words of placeholders that ask for the real value.
    private static let placeholderWords: Set<String> = [
        "your", "here", "replace", "placeholder", "insert", "todo", "fixme", "xxx", "xxxx", "redacted", "example",
        "dummy", "sample", "none", "null", "nil", "undefined", "empty"
    ]

    /// Whether `text`, given the name `name`, reads as a credential a person chose.
    static func looksChosen(_ text: String, name: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= minimumLength, bytes.count <= 128 else { return false }
        // Prose and UI text: `"Enter your password"`, `"Password:"` has no space but is a word.
        guard !bytes.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return false }
        // Placeholders: `"••••••"`, `"******"`, `"xxxxxx"`: one character repeated.
        guard Set(text.unicodeScalars).count > 2 else { return false }
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
        if text.contains("://") || text.hasPrefix("/") || text.hasPrefix("~/") || text.hasPrefix("./")
            || text.hasPrefix("$(") || text.hasPrefix("${") || (text.hasPrefix("<") && text.hasSuffix(">"))
            || (text.hasPrefix("{{") && text.hasSuffix("}}")) || isFormat(bytes)
        {
            return false
        }
        let words = CredentialNames.words(of: text)
        if words.contains(where: { placeholderWords.contains($0) }) { return false }
        // The name itself (`let token = "token"`) or a part of it (`let refreshToken = "refresh"`),
        // or a key name (`"refresh_token"`, `"X-Auth-Token"`,
        // `"Password"`).
        if normalized(name).contains(normalized(text)) || CredentialNames.isCredential(text) { return false }
        if isIdentifierShaped(bytes) {
            if isDotted(bytes) { return false }  // `com.example.token`, `token.json`, `login.password.title`
            // `user_password_v2`, `authTokenKey`: words of a key name, with a credential among them.
            let namesCredential = words.contains { CredentialNames.isCredential($0) }
            let hasSeparator = bytes.contains { $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
            if namesCredential && (hasSeparator || isCamelCase(bytes) || bytes.allSatisfy(isLowerLetter)) {
                return false
            }
        }
        return true
    }

    /// The characters a literal's source text stands for (`\u{1A}`, `\n`, `\\` decoded), or nil when one
    /// of them is a control character (`"\u{001A}"`, a delimiter or a sentinel, not a password) or
    /// an escape is not understood. `raw`: a `#"…"#` literal, whose backslashes are characters.
    static func decodedCharacters(_ source: String, raw: Bool) -> String? {
        var scalars: [Unicode.Scalar] = []
        var iterator = source.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" && !raw else {
                scalars.append(scalar)
                continue
            }
            switch iterator.next() {
            case "n"?, "t"?, "r"?, "0"?: return nil
            case "\\"?: scalars.append("\\")
            case "\""?: scalars.append("\"")
            case "'"?: scalars.append("'")
            case "u"?:
                guard iterator.next() == "{" else { return nil }
                var hex = ""
                while let digit = iterator.next(), digit != "}", hex.count <= 8 { hex.unicodeScalars.append(digit) }
                guard let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) else { return nil }
                scalars.append(decoded)
            default: return nil
            }
        }
        guard !scalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else { return nil }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }

    /// Lower-case letters and digits only: `"api_key"` and `"apiKey"` compare equal.
    private static func normalized(_ text: String) -> String {
        String(
            decoding: text.utf8.compactMap { byte in
                if byte >= 0x41 && byte <= 0x5A { return byte + 0x20 }
                return (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) ? byte : nil
            }, as: UTF8.self)
    }

    /// Letters, digits, `_`, `-` and `.` only.
    private static func isIdentifierShaped(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == 0x2E }
    }

    /// `a.b`: dot-separated parts, each starting with a letter or digit (not `"p4ss.w0rd"`, which has
    /// digits mixed into short parts: a dotted word of letters on at least one side).
    private static func isDotted(_ bytes: [UInt8]) -> Bool {
        let parts = bytes.split(separator: 0x2E, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }) else { return false }
        return parts.contains { part in part.count >= 2 && part.allSatisfy { !($0 >= 0x30 && $0 <= 0x39) } }
    }

    /// `authToken`: starts lower-case, a capital later, no digits.
    private static func isCamelCase(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, isLowerLetter(first) else { return false }
        return bytes.contains { $0 >= 0x41 && $0 <= 0x5A } && !bytes.contains { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// `%@`, `%d`, `%s`, `%1$@`, `%.2f`: a format string.
    private static func isFormat(_ bytes: [UInt8]) -> Bool {
        for index in bytes.indices where bytes[index] == UInt8(ascii: "%") && index + 1 < bytes.count {
            let next = bytes[index + 1]
            if Array("@dsiufxlc.0123456789".utf8).contains(next) { return true }
        }
        return false
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isLowerLetter(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
}
