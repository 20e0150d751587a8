/// The deepest nesting of `[` in Swift source, read the way the Swift lexer reads it: comments,
/// string contents and regex literals do not count, but the code inside a string interpolation
/// does, whatever the string's delimiter.
///
/// It knows single-line and multi-line strings, raw strings with any number of `#` (`#"…"#`,
/// `##"""…"""##`, where only `\#(` interpolates and `\"` is not an escape), interpolations nested
/// in interpolations, nested block comments, `#/…/#` regex literals and backquoted identifiers.
/// It keeps its place on a stack, not by recursion, so that no input makes it slow or deep.
///
/// Whether a bare `/` starts a regex literal (`/"/`, whose quote opens no string) depends on rules
/// of the lexer this scanner does not copy, so it reads the file twice, once taking every `/`
/// as an operator and once taking every `/…/` on one line as a regex (brackets inside still
/// counted), and reports the deeper nesting: a file must fool both readings to hide brackets.
struct BracketDepthScanner {
    /// Where the scanner is.
    private enum Context {
        /// Code: the file itself, or an interpolation's code, closed by the `)` that balances the
        /// `(` after its backslash (`openParentheses` counts those opened since).
        case code(isInterpolation: Bool, openParentheses: Int)
        /// A string literal's contents, delimited by `pounds` `#` on each side.
        case string(pounds: Int, isMultiLine: Bool)
    }

    private let bytes: [UInt8]
    /// Whether `/…/` on one line is taken as a regex literal.
    private let readsBareRegexes: Bool
    private var index = 0
    private var stack: [Context] = [.code(isInterpolation: false, openParentheses: 0)]
    private var depth = 0
    private var deepest = 0

    private init(_ bytes: [UInt8], readsBareRegexes: Bool) {
        self.bytes = bytes
        self.readsBareRegexes = readsBareRegexes
    }

    /// The deepest nesting of `[` outside comments, string contents and regex literals.
    static func deepestBracketNesting(in bytes: [UInt8]) -> Int {
        var operators = BracketDepthScanner(bytes, readsBareRegexes: false)
        operators.scan()
        var regexes = BracketDepthScanner(bytes, readsBareRegexes: true)
        regexes.scan()
        return max(operators.deepest, regexes.deepest)
    }

    private mutating func scan() {
        while index < bytes.count {
            switch stack[stack.count - 1] {
            case .code(let isInterpolation, let openParentheses):
                scanCode(isInterpolation: isInterpolation, openParentheses: openParentheses)
            case .string(let pounds, let isMultiLine):
                scanString(pounds: pounds, isMultiLine: isMultiLine)
            }
        }
    }

    private func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// How many `#` start at `offset`.
    private func pounds(at offset: Int) -> Int {
        var count = 0
        while byte(at: offset + count) == UInt8(ascii: "#") { count += 1 }
        return count
    }

    private func isTripleQuote(at offset: Int) -> Bool {
        byte(at: offset) == UInt8(ascii: "\"") && byte(at: offset + 1) == UInt8(ascii: "\"")
            && byte(at: offset + 2) == UInt8(ascii: "\"")
    }

    private mutating func scanCode(isInterpolation: Bool, openParentheses: Int) {
        let current = bytes[index]
        switch current {
        case UInt8(ascii: "/") where byte(at: index + 1) == UInt8(ascii: "/"):
            while index < bytes.count && bytes[index] != UInt8(ascii: "\n") && bytes[index] != UInt8(ascii: "\r") {
                index += 1
            }
        case UInt8(ascii: "/") where byte(at: index + 1) == UInt8(ascii: "*"):
            skipBlockComment()
        case UInt8(ascii: "/") where readsBareRegexes:
            scanBareRegex()
        case UInt8(ascii: "#"):
            let count = pounds(at: index)
            if byte(at: index + count) == UInt8(ascii: "\"") {
                openString(at: index + count, pounds: count)
            } else if byte(at: index + count) == UInt8(ascii: "/") {
                skipExtendedRegex(pounds: count)
            } else {
                index += count
            }
        case UInt8(ascii: "\""):
            openString(at: index, pounds: 0)
        case UInt8(ascii: "`"):
            index += 1
            while index < bytes.count && !"`\n\r".utf8.contains(bytes[index]) { index += 1 }
            index += 1
        case UInt8(ascii: "(") where isInterpolation:
            stack[stack.count - 1] = .code(isInterpolation: true, openParentheses: openParentheses + 1)
            index += 1
        case UInt8(ascii: ")") where isInterpolation:
            if openParentheses == 0 {
                stack.removeLast()
            } else {
                stack[stack.count - 1] = .code(isInterpolation: true, openParentheses: openParentheses - 1)
            }
            index += 1
        case UInt8(ascii: "["):
            depth += 1
            deepest = max(deepest, depth)
            index += 1
        case UInt8(ascii: "]"):
            depth = max(0, depth - 1)
            index += 1
        default:
            index += 1
        }
    }

    /// Enters a string whose opening quote (or first of three) is at `quote`.
    private mutating func openString(at quote: Int, pounds: Int) {
        let isMultiLine = isTripleQuote(at: quote)
        index = quote + (isMultiLine ? 3 : 1)
        stack.append(.string(pounds: pounds, isMultiLine: isMultiLine))
    }

    private mutating func scanString(pounds: Int, isMultiLine: Bool) {
        let current = bytes[index]
        if current == UInt8(ascii: "\\") && self.pounds(at: index + 1) >= pounds {
            // `\` and the delimiter's pounds: an interpolation when `(` follows, else an escape
            // of the next character (which cannot then close the string).
            let escaped = index + 1 + pounds
            if byte(at: escaped) == UInt8(ascii: "(") {
                stack.append(.code(isInterpolation: true, openParentheses: 0))
            }
            index = escaped + 1
        } else if current == UInt8(ascii: "\"") && isMultiLine && isTripleQuote(at: index)
            && self.pounds(at: index + 3) >= pounds
        {
            stack.removeLast()
            index += 3 + pounds
        } else if current == UInt8(ascii: "\"") && !isMultiLine && self.pounds(at: index + 1) >= pounds {
            stack.removeLast()
            index += 1 + pounds
        } else if !isMultiLine && (current == UInt8(ascii: "\n") || current == UInt8(ascii: "\r")) {
            // An unterminated single-line string ends with its line, as the lexer ends it.
            stack.removeLast()
            index += 1
        } else {
            index += 1
        }
    }

    /// Takes `/…/` up to the next unescaped `/` on the line as a regex literal when it neither
    /// starts nor ends with a space (as Swift requires): quotes, backquotes and comment markers
    /// inside start nothing, brackets still count. Otherwise the `/` is an operator.
    private mutating func scanBareRegex() {
        func isSpace(_ byte: UInt8?) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        func endsLine(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
        var end = index + 1
        guard end < bytes.count, !isSpace(bytes[end]), !endsLine(bytes[end]) else {
            index += 1
            return
        }
        while end < bytes.count && !endsLine(bytes[end]) && bytes[end] != UInt8(ascii: "/") {
            end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "/"), !isSpace(bytes[end - 1]) else {
            index += 1
            return
        }
        var position = index + 1
        while position < end {
            switch bytes[position] {
            case UInt8(ascii: "\\"):
                position += 1
            case UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"):
                depth = max(0, depth - 1)
            default:
                break
            }
            position += 1
        }
        index = end + 1
    }

    private mutating func skipBlockComment() {
        var nesting = 0
        repeat {
            if byte(at: index) == UInt8(ascii: "/") && byte(at: index + 1) == UInt8(ascii: "*") {
                nesting += 1
                index += 2
            } else if byte(at: index) == UInt8(ascii: "*") && byte(at: index + 1) == UInt8(ascii: "/") {
                nesting -= 1
                index += 2
            } else {
                index += 1
            }
        } while index < bytes.count && nesting > 0
    }

    /// Skips `#/…/#` (as many `#` on each side); a `#` run followed by `/` that never closes is
    /// taken as code from the `/` on.
    private mutating func skipExtendedRegex(pounds: Int) {
        var end = index + pounds + 1
        while end < bytes.count {
            if bytes[end] == UInt8(ascii: "\\") {
                end += 2
                continue
            }
            if bytes[end] == UInt8(ascii: "/") && self.pounds(at: end + 1) >= pounds {
                index = end + 1 + pounds
                return
            }
            end += 1
        }
        index += pounds
    }
}
