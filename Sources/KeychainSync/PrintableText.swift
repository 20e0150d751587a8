import Foundation

/// Text from the server or another device, made safe to show: control and bidirectional
/// formatting characters become `?` (no terminal escapes, no reordered lines), and it is cut to
/// `limit` characters.
enum PrintableText {
    static func sanitized(_ text: String, limit: Int = 200) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(limit) {
            let value = scalar.value
            let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
            let isBidi = (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F || value == 0x061C
            out.unicodeScalars.append(isControl || isBidi ? "?" : scalar)
        }
        return out
    }
}
