import SwiftSyntax

/// Reports `accessible-always`: `kSecAttrAccessibleAlways` or `…AlwaysThisDeviceOnly` (or their
/// raw values `"dk"`/`"dku"`, or a wrapper's `.always` option) flowing into a query: the value of
/// `kSecAttrAccessible`, the protection of `SecAccessControlCreateWithFlags`, an argument or
/// default value of an accessibility parameter.
///
/// Declarations, `case` patterns, assertions and mapping tables that merely name the constants
/// are not reported.
final class AccessibleAlwaysVisitor: SyntaxVisitor {
    private let context: FileLintContext
    /// Names the module gives Security constants (`K.attrAccessible: kSecAttrAccessibleAlways`).
    private let aliases: SecurityAliases
    private static let constants: Set<String> = ["kSecAttrAccessibleAlways", "kSecAttrAccessibleAlwaysThisDeviceOnly"]
    private static let wrapperOptions: Set<String> = ["always", "alwaysThisDeviceOnly"]

    init(context: FileLintContext) {
        self.context = context
        aliases = SecurityAliases(facts: context.module.queries)
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.baseName.text
        guard Self.constants.contains(name) else { return .visitChildren }
        if let destination = destination(of: ExprSyntax(node)) {
            context.report(
                .accessibleAlways, at: node,
                "\(name) makes the item readable while the device is locked and is deprecated; use kSecAttrAccessibleAfterFirstUnlock\(name.hasSuffix("ThisDeviceOnly") ? "ThisDeviceOnly" : "") (\(destination))."
            )
        }
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        // `Security.kSecAttrAccessibleAlways`.
        if node.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Security",
            Self.constants.contains(node.declName.baseName.text),
            let destination = destination(of: ExprSyntax(node))
        {
            context.report(
                .accessibleAlways, at: node,
                "\(node.declName.baseName.text) makes the item readable while the device is locked and is deprecated; use kSecAttrAccessibleAfterFirstUnlock (\(destination))."
            )
            return .skipChildren
        }
        // `.accessibility(.always)`, `withAccessibility: .always`, `Valet.valet(with:accessibility: .always)`.
        guard node.base == nil, Self.wrapperOptions.contains(node.declName.baseName.text),
            let argument = node.parent?.as(LabeledExprSyntax.self),
            let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
        else { return .visitChildren }
        let label = argument.label?.text.lowercased() ?? ""
        if label.contains("accessib")
            || (argument.label == nil && call.calleeName?.lowercased().contains("accessib") == true)
        {
            context.report(
                .accessibleAlways, at: node,
                ".\(node.declName.baseName.text) stores the item as kSecAttrAccessibleAlways: readable while the device is locked, and deprecated; use .afterFirstUnlock\(node.declName.baseName.text.hasSuffix("ThisDeviceOnly") ? "ThisDeviceOnly" : "")."
            )
        }
        return .visitChildren
    }

    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        // The constants' raw values, written as strings into a query.
        guard node.segments.count == 1, case .stringSegment(let segment)? = node.segments.first,
            segment.content.text == "dk" || segment.content.text == "dku",
            let element = node.parent?.as(DictionaryElementSyntax.self), element.value.id == node.id,
            aliases.constantName(element.key) == "kSecAttrAccessible"
        else { return .visitChildren }
        context.report(
            .accessibleAlways, at: node,
            "\"\(segment.content.text)\" is the raw value of kSecAttrAccessibleAlways\(segment.content.text == "dku" ? "ThisDeviceOnly" : ""): readable while the device is locked; use kSecAttrAccessibleAfterFirstUnlock."
        )
        return .skipChildren
    }

    /// Where the constant goes, when it goes into a query or an accessibility setting.
    private func destination(of constant: ExprSyntax) -> String? {
        // Climb through conversions: `kSecAttrAccessibleAlways as String`, `String(…)`, `(…)`.
        var node = Syntax(constant)
        while let parent = node.parent {
            if let list = parent.as(ExprListSyntax.self), list.count == 3, list.first?.id == node.id,
                list.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true, let sequence = list.parent
            {
                node = sequence
            } else if parent.is(ForceUnwrapExprSyntax.self)
                || parent.is(TupleExprSyntax.self) && parent.as(TupleExprSyntax.self)?.elements.count == 1
            {
                node = parent
            } else if let argument = parent.as(LabeledExprSyntax.self),
                argument.parent?.parent?.as(FunctionCallExprSyntax.self)
                    .map({
                        ["String", "CFString"].contains(
                            $0.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text ?? "")
                    }) == true
            {
                node = argument.parent!.parent!
            } else if parent.is(LabeledExprSyntax.self) && parent.parent?.parent?.is(TupleExprSyntax.self) == true
                && parent.parent?.parent?.as(TupleExprSyntax.self)?.elements.count == 1
            {
                node = parent.parent!.parent!
            } else {
                break
            }
        }
        guard let parent = node.parent else { return nil }
        if let element = parent.as(DictionaryElementSyntax.self), element.value.id == node.id,
            aliases.constantName(element.key) == "kSecAttrAccessible"
        {
            return "the query's kSecAttrAccessible"
        }
        if let sequence = parent.parent?.as(SequenceExprSyntax.self), let (target, value) = sequence.assignment,
            value?.id == node.id || Array(sequence.elements).dropFirst(2).first?.id == node.id,
            target.as(SubscriptCallExprSyntax.self)?.arguments.first.flatMap({ aliases.constantName($0.expression) })
                == "kSecAttrAccessible"
        {
            return "the query's kSecAttrAccessible"
        }
        if let argument = parent.as(LabeledExprSyntax.self),
            let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
        {
            if call.calleeName == "SecAccessControlCreateWithFlags" { return "the access control's protection" }
            // `query.updateValue(kSecAttrAccessibleAlways, forKey: kSecAttrAccessible as String)`.
            if ["updateValue", "setValue", "setObject"].contains(call.calleeName ?? ""), argument.label == nil,
                call.argument(labeled: "forKey").flatMap(aliases.constantName) == "kSecAttrAccessible"
            {
                return "the query's kSecAttrAccessible"
            }
            let label = argument.label?.text.lowercased() ?? ""
            if label.contains("accessib") || label == "protection" { return "the \(argument.label!.text) argument" }
        }
        if let initializer = parent.as(InitializerClauseSyntax.self) {
            if let parameter = initializer.parent?.as(FunctionParameterSyntax.self) {
                return "the default of \(parameter.secondName?.text ?? parameter.firstName.text)"
            }
            if let binding = initializer.parent?.as(PatternBindingSyntax.self),
                let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text.lowercased(),
                name.contains("accessib") || name.contains("protection")
            {
                return "stored in \(binding.pattern.trimmedDescription)"
            }
        }
        return nil
    }
}
