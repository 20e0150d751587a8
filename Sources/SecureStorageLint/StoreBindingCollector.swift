import SwiftSyntax

/// The names a file binds to values and types, in source order (a first pass, so that a property
/// declared after the methods that use it is known to them): `let defaults = UserDefaults(…)`,
/// `private let store: NSUbiquitousKeyValueStore`.
final class StoreBindingCollector: SyntaxVisitor {
    /// Each bound name and its initial value.
    private(set) var bindings: [(name: String, value: ExprSyntax)] = []
    /// Each bound name and its declared type, as an expression (`NSUbiquitousKeyValueStore`).
    private(set) var typedBindings: [(name: String, type: ExprSyntax)] = []

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return .visitChildren }
        if let value = node.initializer?.value, bindings.count < 10_000 { bindings.append((name, value)) }
        if let type = node.typeAnnotation?.type, typedBindings.count < 10_000 {
            let simple = CredentialDeclarationCollector.simpleTypeName(type)
            typedBindings.append((name, ExprSyntax(DeclReferenceExprSyntax(baseName: .identifier(simple)))))
        }
        return .visitChildren
    }
}
