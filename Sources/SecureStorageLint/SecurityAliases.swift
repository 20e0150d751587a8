import SwiftSyntax

/// Names a file gives Security constants, as some wrappers do to shorten their queries
/// (`private let ReturnData = String(kSecReturnData)`, `let MatchLimitAll = kSecMatchLimitAll as String`).
struct SecurityAliases {
    private var names: [String: String] = [:]

    /// No aliases.
    init() {}

    /// The aliases declared anywhere in a file (read before the rules walk it, since they are
    /// often declared at its end).
    init(tree: SourceFileSyntax) {
        let collector = AliasCollector(viewMode: .sourceAccurate)
        collector.walk(tree)
        names = collector.names
    }

    /// The constant an expression is or names: `kSecClass`, or `Class` where `let Class = String(kSecClass)`.
    func constantName(_ expression: ExprSyntax) -> String? {
        if let name = expression.securityConstantName { return name }
        guard !names.isEmpty, let name = expression.strippingConversions.referencedName else { return nil }
        return names[name]
    }
}

/// Collects `let Name = kSec…` bindings (through `String(…)` and `as String`), skipping bodies.
private final class AliasCollector: SyntaxVisitor {
    var names: [String: String] = [:]

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let constant = node.initializer?.value.securityConstantName
        {
            names[name] = constant
        }
        return .skipChildren
    }
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
