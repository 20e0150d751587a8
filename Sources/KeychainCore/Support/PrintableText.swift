/// Text that did not come from this user, made safe to show on a terminal: item attributes
/// (which a circle member, an imported backup or a migrated file may have written), device
/// names, and what a server says.
///
/// Control characters (C0, DEL and C1, including U+009B, the one-character CSI) and bidirectional
/// formatting characters become `?`: no terminal escape sequence (a changed window title, a
/// cleared screen, a rewritten line) and no reordered text reaches the terminal. Use it for text
/// output only; JSON output keeps the exact value.
///
/// ```swift
/// PrintableText.sanitized("name\u{1B}[31m\u{202E}evil")   // "name?[31m?evil"
/// ```
public enum PrintableText {
    /// `text` with every control and bidirectional formatting character replaced by `?`, cut to
    /// its first `limit` characters (Unicode scalars).
    /// - Parameters:
    ///   - text: the text to show.
    ///   - limit: how many characters to keep at most (default: all).
    public static func sanitized(_ text: String, limit: Int = .max) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(limit) {
            out.unicodeScalars.append(isUnsafe(scalar) ? "?" : scalar)
        }
        return out
    }

    /// Whether `scalar` is a control (C0, DEL, C1) or bidirectional formatting character.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
        let isBidi =
            (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F
            || value == 0x061C
        return isControl || isBidi
    }
}
