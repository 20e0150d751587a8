/// Files the linter refuses rather than parse: too large, or with brackets nested so deep that
/// swift-syntax's parser takes exponential time (each level of `[[[…]]]` doubles it).
package enum InputLimits {
    /// The largest file linted: 16 MiB.
    package static let maximumBytes = 16 << 20
    /// The deepest `[` nesting linted (ordinary code stays under 8).
    package static let maximumBracketDepth = 16

    /// Why a file is not linted, or nil when it is.
    package static func refusal(of bytes: [UInt8]) -> String? {
        if bytes.count > maximumBytes { return "is larger than 16 MiB" }
        let depth = bracketDepth(bytes)
        if depth > maximumBracketDepth {
            return "nests brackets \(depth) deep (more than \(maximumBracketDepth)), where the Swift parser takes exponential time"
        }
        return nil
    }

    /// The deepest nesting of `[` outside comments and string literals.
    static func bracketDepth(_ bytes: [UInt8]) -> Int {
        let quote = UInt8(ascii: "\""), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), backslash = UInt8(ascii: "\\")
        var depth = 0, deepest = 0, index = 0
        func isTripleQuote(_ at: Int) -> Bool { at + 2 < bytes.count && bytes[at] == quote && bytes[at + 1] == quote && bytes[at + 2] == quote }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == slash && index + 1 < bytes.count && bytes[index + 1] == slash {
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if byte == slash && index + 1 < bytes.count && bytes[index + 1] == star {
                var nesting = 1
                index += 2
                while index < bytes.count && nesting > 0 {
                    if bytes[index] == slash && index + 1 < bytes.count && bytes[index + 1] == star { nesting += 1; index += 1 }
                    else if bytes[index] == star && index + 1 < bytes.count && bytes[index + 1] == slash { nesting -= 1; index += 1 }
                    index += 1
                }
                continue
            } else if isTripleQuote(index) {
                index += 3
                while index < bytes.count && !isTripleQuote(index) { index += bytes[index] == backslash ? 2 : 1 }
                index += 3
                continue
            } else if byte == quote {
                index += 1
                while index < bytes.count && bytes[index] != quote && bytes[index] != UInt8(ascii: "\n") { index += bytes[index] == backslash ? 2 : 1 }
            } else if byte == UInt8(ascii: "[") {
                depth += 1
                deepest = max(deepest, depth)
            } else if byte == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            }
            index += 1
        }
        return deepest
    }
}
