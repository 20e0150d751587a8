import SwiftSyntax

/// A call that writes to a log or to standard output, and which parts of it reach the log
/// unredacted.
///
/// - `print`, `debugPrint`, `dump`, `NSLog`, `fatalError`, CocoaLumberjack's `DDLog…` and loggers
///   that are not Apple's unified logging write every argument as it is.
/// - `os_log("…%{public}@…", value)`: Apple's unified logging redacts dynamic strings and objects
///   (`%@`, `%s`) unless the specifier says `{public}`; scalars (`%d`, `%f`, …) are public unless
///   it says `{private}` or `{sensitive}`.
/// - `Logger`/`os_log` with an interpolated message: each interpolation is redacted unless it says
///   `privacy: .public` (the default, `.auto`, redacts everything but numbers and booleans).
///
/// (Arguments are filtered as an `Array`: `filter` on a syntax collection builds a new, detached
/// collection, which costs a copy of the whole tree and loses the nodes' parents.)
struct LogSink {
    /// What the rule calls the sink in its message (`print`, `logger.debug`, `os_log`).
    let name: String
    /// The parts of the call whose value reaches the log unredacted.
    let exposed: [ExprSyntax]
    /// Whether the sink is Apple's unified logging, where only `public` values are exposed.
    let isUnifiedLogging: Bool

    private static let printers: Set<String> = [
        "print", "debugPrint", "dump", "NSLog", "NSLogv", "fatalError", "preconditionFailure", "assertionFailure",
        "DDLogVerbose", "DDLogDebug", "DDLogInfo", "DDLogWarn", "DDLogError"
    ]
    private static let loggerMethods: Set<String> = [
        "trace", "debug", "info", "notice", "warning", "error", "critical", "fault", "log", "verbose", "warn"
    ]
    /// Labels of `print`'s and `dump`'s options, not printed.
    private static let optionLabels: Set<String> = ["separator", "terminator", "name", "indent", "maxDepth", "maxItems"]

    /// The sink a call is, if it is one. `unifiedLoggingImported`: whether the file imports `os`
    /// or `OSLog`, so that a `logger.debug("\(value)")` is Apple's `Logger` (which redacts).
    init?(call: FunctionCallExprSyntax, unifiedLoggingImported: Bool) {
        guard let callee = call.calleeName else { return nil }
        let base = call.calleeBase
        let baseName = base?.as(DeclReferenceExprSyntax.self)?.baseName.text
        if base == nil || baseName == "Swift" || baseName == "Foundation" || baseName == "os" {
            if callee == "os_log" {
                self = Self.osLog(call)
                return
            }
            // `print(x, to: &string)`, `dump(x, to: &output)`: a stream of the program's own, not a log.
            guard Self.printers.contains(callee), call.argument(labeled: "to") == nil else { return nil }
            self.init(
                name: callee,
                exposed: Array(call.arguments).filter { $0.label.map { !Self.optionLabels.contains($0.text) } ?? true }
                    .map(\.expression),
                isUnifiedLogging: false)
            return
        }
        guard Self.loggerMethods.contains(callee), let base, let receiver = Self.loggerName(base) else { return nil }
        // Apple's `Logger`: `Logger(subsystem:category:)`, or a logger in a file that imports os, or
        // a message whose interpolations say `privacy:`.
        let constructedLogger =
            base.as(FunctionCallExprSyntax.self)?.calledExpression.as(DeclReferenceExprSyntax.self)
            .map { $0.baseName.text == "Logger" } ?? false
        let unified = constructedLogger || unifiedLoggingImported || call.arguments.contains { Self.saysPrivacy($0) }
        self.init(
            name: "\(receiver).\(callee)",
            exposed: unified
                ? call.arguments.flatMap { Self.publicInterpolations(in: $0.expression) }
                : Array(call.arguments).filter { $0.label?.text != "level" }.map(\.expression),
            isUnifiedLogging: unified)
    }

    private init(name: String, exposed: [ExprSyntax], isUnifiedLogging: Bool) {
        self.name = name
        self.exposed = exposed
        self.isUnifiedLogging = isUnifiedLogging
    }

    /// `os_log(_ format: StaticString, log:, type:, _ args: CVarArg...)`, or `os_log(_ type:,
    /// log:, _ message: OSLogMessage)` whose message is interpolated.
    private static func osLog(_ call: FunctionCallExprSyntax) -> LogSink {
        let arguments = Array(call.arguments)
        guard let formatIndex = arguments.firstIndex(where: { $0.expression.is(StringLiteralExprSyntax.self) }),
            let format = arguments[formatIndex].expression.as(StringLiteralExprSyntax.self)
        else { return LogSink(name: "os_log", exposed: [], isUnifiedLogging: true) }
        if format.segments.contains(where: { $0.is(ExpressionSegmentSyntax.self) }) {
            return LogSink(
                name: "os_log", exposed: publicInterpolations(in: ExprSyntax(format)), isUnifiedLogging: true)
        }
        let values = arguments[(formatIndex + 1)...].filter { $0.label == nil }.map(\.expression)
        let text = format.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
        var exposed: [ExprSyntax] = []
        for (index, isPublic) in OSLogFormat.arguments(of: text).enumerated() where isPublic && index < values.count {
            exposed.append(values[index])
        }
        return LogSink(name: "os_log", exposed: exposed, isUnifiedLogging: true)
    }

    /// The receiver's name when it is a logger: an identifier with the word `log`, `logger`,
    /// `logging` or `crashlytics` (`logger`, `Logger.auth`, `appLog`, `Crashlytics.crashlytics()`).
    private static func loggerName(_ base: ExprSyntax) -> String? {
        // `Logger(subsystem: …, category: …)`: the type, not its arguments.
        let base = base.as(FunctionCallExprSyntax.self)?.calledExpression ?? base
        var last: String?
        var isLogger = false
        for token in base.tokens(viewMode: .sourceAccurate).prefix(32) where token.tokenKind.isIdentifier {
            last = token.text
            let words = CredentialNames.words(of: token.text)
            if words.contains(where: { ["log", "logger", "logging", "crashlytics"].contains($0) }) { isLogger = true }
        }
        return isLogger ? last : nil
    }

    /// Whether an argument's message interpolates with a `privacy:` label (only `os.Logger` has it).
    private static func saysPrivacy(_ argument: LabeledExprSyntax) -> Bool {
        guard let literal = argument.expression.as(StringLiteralExprSyntax.self) else { return false }
        return literal.segments.contains { segment in
            segment.as(ExpressionSegmentSyntax.self)?.expressions.contains { $0.label?.text == "privacy" } ?? false
        }
    }

    /// The interpolated values of a unified-logging message marked `privacy: .public`.
    private static func publicInterpolations(in expression: ExprSyntax) -> [ExprSyntax] {
        guard let literal = expression.as(StringLiteralExprSyntax.self) else { return [] }
        var exposed: [ExprSyntax] = []
        for segment in literal.segments {
            guard let interpolation = segment.as(ExpressionSegmentSyntax.self),
                let privacy = interpolation.expressions.first(where: { $0.label?.text == "privacy" })?.expression,
                privacyLevel(privacy) == "public",
                let value = interpolation.expressions.first?.expression
            else { continue }
            exposed.append(value)
        }
        return exposed
    }

    /// `public` for `.public`, `OSLogPrivacy.public`; `private` for `.private(mask: .hash)`.
    static func privacyLevel(_ expression: ExprSyntax) -> String? {
        if let member = expression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        if let call = expression.as(FunctionCallExprSyntax.self) { return call.calleeName }
        return nil
    }
}

/// The arguments of an `os_log` format string, in order, and whether each is logged unredacted.
enum OSLogFormat {
    /// Flags, digits, `.`, `$` and length modifiers between `%` and the conversion.
    private static let modifierBytes = Set("-+ #0123456789.$hlqLzjt'".utf8)

    /// For each argument the format consumes (`*` widths included), whether the unified log keeps
    /// it public: `{public}` makes it public, `{private}`/`{sensitive}` private, and otherwise
    /// objects and strings (`@`, `s`, `S`) are private and scalars public.
    static func arguments(of format: String) -> [Bool] {
        let bytes = Array(format.utf8)
        var result: [Bool] = []
        var index = 0
        while index < bytes.count, result.count < 64 {
            guard bytes[index] == UInt8(ascii: "%") else {
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            if bytes[index] == UInt8(ascii: "%") {
                index += 1
                continue
            }
            var privacy: String?
            if bytes[index] == UInt8(ascii: "{") {
                let start = index + 1
                while index < bytes.count && bytes[index] != UInt8(ascii: "}") { index += 1 }
                let annotation = String(decoding: bytes[start..<min(index, bytes.count)], as: UTF8.self)
                for word in annotation.split(separator: ",").map({ $0.trimmingSpaces }) {
                    if ["public", "private", "sensitive"].contains(word) { privacy = word }
                }
                index += 1
            }
            // Flags, width, precision and length modifiers, then the conversion.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "*") {
                    result.append(true)  // a width or precision argument: an integer, public.
                } else if !Self.modifierBytes.contains(byte) {
                    break
                }
                index += 1
            }
            guard index < bytes.count else { break }
            let conversion = bytes[index]
            index += 1
            let isObjectOrString =
                conversion == UInt8(ascii: "@") || conversion == UInt8(ascii: "s") || conversion == UInt8(ascii: "S")
            switch privacy {
            case "public": result.append(true)
            case "private", "sensitive": result.append(false)
            default: result.append(!isObjectOrString)
            }
        }
        return result
    }
}

extension Substring {
    /// The text without leading and trailing spaces.
    fileprivate var trimmingSpaces: String {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
