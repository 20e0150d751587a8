import SwiftSyntax

/// A function or computed property of the module that returns a query literal
/// (`func baseQuery(_ key: String) -> [String: Any] { [kSecClass: …, kSecAttrAccount: key] }`),
/// summarised as which key gets which value, the values written as ``QueryTemplate``s in terms
/// of its parameters (`$0` for `key`), so that the call `baseQuery(name)` is a query whose
/// account is `name`.
package struct QueryBuilder: Sendable, Hashable, Codable {
    /// One parameter: its argument label (`_` for none) and whether it has a default value.
    package struct Parameter: Sendable, Hashable, Codable {
        /// The argument label, `_` when there is none.
        package var label: String
        /// Whether a call may leave it out.
        package var hasDefault: Bool
    }

    /// The builder a builder starts from (`var query = baseQuery(); query[…] = key; return query`).
    package struct BaseCall: Sendable, Hashable, Codable {
        /// The called builder's short signature.
        package var signature: String
        /// The call's argument labels (`_` for none).
        package var labels: [String]
        /// The call's arguments, as templates in the calling builder's parameters.
        package var arguments: [String]
    }

    /// The parameters, in order (none for a computed property).
    package var parameters: [Parameter]
    /// Value templates by key: a constant (`kSecAttrAccount`) once resolved, before that the
    /// name the key was written with (`attrAccount` for `K.attrAccount`).
    package var entries: [String: String]
    /// Whether ``entries`` are all the keys.
    package var isComplete: Bool
    /// The builder this one starts from, until resolved.
    package var base: BaseCall?

    /// The most keys a resolved builder keeps: real queries name a dozen or so; beyond this the
    /// builder keeps the keys the rules read and is no longer complete (so a generated file of
    /// thousands of builders, each inheriting thousands of keys, stays linear).
    static let maximumEntries = 32

    /// The keys kept first when a builder has more than ``maximumEntries``.
    private static let keysTheRulesRead: Set<String> = [
        "kSecClass", "kSecAttrService", "kSecAttrAccount", "kSecAttrServer", "kSecAttrApplicationTag",
        "kSecAttrApplicationLabel", "kSecAttrLabel", "kSecAttrAccessGroup", "kSecAttrAccessible",
        "kSecAttrAccessControl", "kSecReturnData", "kSecMatchLimit", "kSecValueData"
    ]

    /// This builder with its keys named by constants and its base builder's entries included
    /// (keys that name no known constant make it incomplete). A chain of at most
    /// `remainingBases` base builders is followed; `memo` holds each builder resolved with each
    /// remaining depth once, so that builders sharing bases cost one resolution each.
    func resolved(
        aliases: [String: String], builders: [String: QueryBuilder], remainingBases: Int,
        memo: inout [String: QueryBuilder]
    ) -> QueryBuilder {
        var result = QueryBuilder(parameters: parameters, entries: [:], isComplete: isComplete, base: nil)
        if let base {
            if remainingBases > 0, let called = builders[base.signature],
                let mapping = Self.match(labels: base.labels, to: called.parameters)
            {
                let memoKey = "\(remainingBases - 1) \(base.signature)"
                let resolvedBase: QueryBuilder
                if let known = memo[memoKey] {
                    resolvedBase = known
                } else {
                    resolvedBase = called.resolved(
                        aliases: aliases, builders: builders, remainingBases: remainingBases - 1, memo: &memo)
                    memo[memoKey] = resolvedBase
                }
                var arguments: [Int: String] = [:]
                for (parameter, argument) in mapping { arguments[parameter] = base.arguments[argument] }
                for (key, template) in resolvedBase.entries {
                    result.entries[key] = QueryTemplate.substitute(template, arguments) ?? "?\(base.signature).\(key)"
                }
                result.isComplete = result.isComplete && resolvedBase.isComplete
            } else {
                result.isComplete = false
            }
        }
        for (key, template) in entries {
            let isConstant = key.hasPrefix("kSec") || key.hasPrefix("kCF")
            guard let constant = isConstant ? key : aliases[key] else {
                result.isComplete = false
                continue
            }
            result.entries[constant] = template
        }
        if result.entries.count > Self.maximumEntries {
            result.entries = result.entries.filter { Self.keysTheRulesRead.contains($0.key) }
            result.isComplete = false
        }
        return result
    }

    /// Which argument each parameter gets (parameter index → argument index), or nil when the
    /// labels do not fit the parameters.
    static func match(labels: [String], to parameters: [Parameter]) -> [Int: Int]? {
        var mapping: [Int: Int] = [:]
        var next = 0
        for (index, parameter) in parameters.enumerated() {
            if next < labels.count && labels[next] == parameter.label {
                mapping[index] = next
                next += 1
            } else if !parameter.hasDefault {
                return nil
            }
        }
        return next == labels.count ? mapping : nil
    }
}

/// A query value written as its tokens separated by spaces, `self.` dropped, a builder's
/// parameters as `$0`, `$1`…, and string literal contents as a hash (facts never hold a
/// literal's text): two values are the same expression when their templates are equal.
enum QueryTemplate {
    /// Values longer than this many tokens are not compared.
    static let maximumTokens = 48

    /// The template of an expression (nil when too long).
    static func of(_ expression: ExprSyntax, parameters: [String: Int] = [:]) -> String? {
        if expression.isTrueLiteral { return "true" }
        var parts: [String] = []
        var skipPeriod = false
        var previousWasPeriod = false
        for token in expression.strippingConversions.tokens(viewMode: .sourceAccurate) {
            if parts.count >= maximumTokens { return nil }
            switch token.tokenKind {
            case .keyword(.self) where !previousWasPeriod:
                skipPeriod = true
                continue
            case .period where skipPeriod:
                skipPeriod = false
                previousWasPeriod = true
                continue
            case .stringSegment(let text), .regexLiteralPattern(let text):
                parts.append("#" + String(hash(text), radix: 36))
            case .identifier(let name) where !previousWasPeriod:
                if let index = parameters[name] { parts.append("$\(index)") } else { parts.append(name) }
            default:
                parts.append(token.text)
            }
            skipPeriod = false
            previousWasPeriod = token.tokenKind == .period
        }
        return parts.joined(separator: " ")
    }

    /// A template with its parameters replaced by argument templates; nil when it uses a
    /// parameter that has no argument (a default value), or when the result would be longer
    /// than ``maximumTokens`` (a chain of builders repeating their parameter must not grow
    /// templates geometrically).
    static func substitute(_ template: String, _ arguments: [Int: String]) -> String? {
        guard template.contains("$") else { return template }
        var parts: [Substring] = []
        for part in template.split(separator: " ") {
            if part.first == "$", let index = Int(part.dropFirst()) {
                guard let argument = arguments[index] else { return nil }
                parts.append(contentsOf: argument.split(separator: " "))
            } else {
                parts.append(part)
            }
            if parts.count > maximumTokens { return nil }
        }
        return parts.joined(separator: " ")
    }

    /// The names a template is built from (`keyPrefix + key` → `keyPrefix`, `key`).
    static func names(in template: String) -> Set<String> {
        var names: Set<String> = []
        var previous: Substring = ""
        for part in template.split(separator: " ") {
            if previous != ".", let first = part.first, first.isLetter || first == "_" { names.insert(String(part)) }
            previous = part
        }
        return names
    }

    /// FNV-1a, stable across processes (unlike `Hasher`).
    private static func hash(_ text: String) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        return value
    }
}

extension FunctionCallExprSyntax {
    /// The called function's name and first argument label (`remove(_`, `set(forKey`, `clear(`).
    package var shortSignature: String? {
        guard let name = calleeName else { return nil }
        guard let first = arguments.first else { return name + "(" }
        return name + "(" + (first.label?.text ?? "_")
    }

    /// The argument labels, `_` for none.
    var argumentLabels: [String] { arguments.map { $0.label?.text ?? "_" } }
}

extension FunctionDeclSyntax {
    /// The function's name and first parameter's label, as ``FunctionCallExprSyntax/shortSignature``.
    var shortSignature: String {
        guard let first = signature.parameterClause.parameters.first else { return name.text + "(" }
        return name.text + "(" + first.firstName.text
    }
}

extension SequenceExprSyntax {
    /// The whole right side of `target = a + b` (``assignment`` gives only short values), as one
    /// expression; nil when this is no assignment.
    var assignedExpression: ExprSyntax? {
        guard let (_, value) = assignment else { return nil }
        if let value { return value }
        return ExprSyntax(SequenceExprSyntax(elements: ExprListSyntax(Array(elements.dropFirst(2)))))
    }
}
