import SwiftSyntax

/// Reports `secitem-on-main-actor`: SecItem calls in code isolated to the main actor: a
/// `@MainActor` function or type, a type that is main-actor isolated by what it conforms to or
/// inherits (SwiftUI `View` and `App`, UIKit and AppKit view controllers, views and application
/// delegates, and the module's own types that inherit from them in any file: ``ActorFacts``),
/// extensions of such types, `DispatchQueue.main.async { … }`, `MainActor.run { … }` and
/// `Task { @MainActor in … }`.
/// `nonisolated` functions, `Task.detached` and other queues leave the main actor.
final class MainActorVisitor: SyntaxVisitor {
    private let context: FileLintContext
    /// Whether each enclosing declaration or closure runs on the main actor, innermost last.
    private var isolation: [Bool] = [false]

    init(context: FileLintContext) {
        self.context = context
        super.init(viewMode: .sourceAccurate)
    }

    private var current: Bool { isolation[isolation.count - 1] }

    // MARK: Types

    /// Enters a type declaration or extension: main-actor isolated when it says so, when the
    /// module knows the type as one (``ActorFacts``: declared, inherited or conformed in any file),
    /// or when it inherits or conforms to a main-actor type here.
    private func enterType(
        named name: String, attributes: AttributeListSyntax, inheritance: InheritanceClauseSyntax?,
        isActor: Bool = false
    ) {
        let inherited =
            inheritance?.inheritedTypes.contains { type in
                let supertype = type.type.trimmedDescription
                return ActorFacts.isMainActorSupertype(supertype) || context.module.actors.isMainActor(supertype)
            } ?? false
        let known = context.module.actors.isMainActor(name)
        isolation.append(!isActor && (Self.hasMainActor(attributes) || inherited || known))
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        enterType(named: node.name.text, attributes: node.attributes, inheritance: node.inheritanceClause)
        return .visitChildren
    }
    override func visitPost(_ node: ClassDeclSyntax) { isolation.removeLast() }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        enterType(named: node.name.text, attributes: node.attributes, inheritance: node.inheritanceClause)
        return .visitChildren
    }
    override func visitPost(_ node: StructDeclSyntax) { isolation.removeLast() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        enterType(named: node.name.text, attributes: node.attributes, inheritance: node.inheritanceClause)
        return .visitChildren
    }
    override func visitPost(_ node: EnumDeclSyntax) { isolation.removeLast() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        enterType(
            named: node.name.text, attributes: node.attributes, inheritance: node.inheritanceClause, isActor: true)
        return .visitChildren
    }
    override func visitPost(_ node: ActorDeclSyntax) { isolation.removeLast() }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        enterType(
            named: node.extendedType.trimmedDescription, attributes: node.attributes,
            inheritance: node.inheritanceClause)
        return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { isolation.removeLast() }

    // MARK: Functions and closures

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        isolation.append(isolationOf(attributes: node.attributes, modifiers: node.modifiers))
        return .visitChildren
    }
    override func visitPost(_ node: FunctionDeclSyntax) { isolation.removeLast() }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        isolation.append(isolationOf(attributes: node.attributes, modifiers: node.modifiers))
        return .visitChildren
    }
    override func visitPost(_ node: InitializerDeclSyntax) { isolation.removeLast() }
    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        isolation.append(isolationOf(attributes: node.attributes, modifiers: node.modifiers))
        return .visitChildren
    }
    override func visitPost(_ node: VariableDeclSyntax) { isolation.removeLast() }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        isolation.append(isolationOf(closure: node))
        return .visitChildren
    }
    override func visitPost(_ node: ClosureExprSyntax) { isolation.removeLast() }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if current, let function = SecItemFunction(call: node) {
            context.report(
                .secItemOnMainActor, at: node,
                "\(function.rawValue) runs on the main actor here; it blocks until the keychain answers (and until the user answers a prompt for items with an access control). Call it from a background task."
            )
        }
        return .visitChildren
    }

    // MARK: Deciding

    private func isolationOf(attributes: AttributeListSyntax, modifiers: DeclModifierListSyntax) -> Bool {
        if modifiers.contains(where: { $0.name.tokenKind == .keyword(.nonisolated) }) { return false }
        if Self.hasMainActor(attributes) { return true }
        return current
    }

    private func isolationOf(closure: ClosureExprSyntax) -> Bool {
        if let signature = closure.signature, Self.hasMainActor(signature.attributes) { return true }
        // The call the closure is given to: `DispatchQueue.main.async { }`, `MainActor.run { }`, `Task.detached { }`.
        var call: FunctionCallExprSyntax?
        if let parent = closure.parent?.as(FunctionCallExprSyntax.self) {
            call = parent
        } else if let argument = closure.parent?.as(LabeledExprSyntax.self) {
            call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
        }
        guard let call else { return current }
        let callee = call.calledExpression.trimmedDescription
        if callee.hasPrefix("DispatchQueue.main.") || callee.hasPrefix("MainActor.run")
            || callee == "MainActor.assumeIsolated"
            || callee.hasPrefix("OperationQueue.main.") || callee.hasPrefix("RunLoop.main.")
        {
            return true
        }
        if callee.hasPrefix("Task.detached") || callee.hasPrefix("DispatchQueue.global") || callee.hasSuffix(".async")
            || callee.hasSuffix(".sync")
            || callee.hasSuffix("asyncAfter") || callee.hasPrefix("Thread") || callee.hasPrefix("OperationQueue")
        {
            return false
        }
        return current
    }

    private static func hasMainActor(_ attributes: AttributeListSyntax) -> Bool {
        attributes.contains { element in
            guard case .attribute(let attribute) = element else { return false }
            return attribute.attributeName.trimmedDescription == "MainActor"
        }
    }
}
