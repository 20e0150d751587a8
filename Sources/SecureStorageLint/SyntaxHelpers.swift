import SwiftSyntax

extension ExprSyntax {
    /// The expression without what does not change which value it names: parentheses, `as`
    /// casts (`kSecClass as String`, `query as CFDictionary`), force unwraps (`kCFBooleanTrue!`),
    /// `&` and `String(kSecClass)`-style conversions.
    package var strippingConversions: ExprSyntax {
        var expression = self
        while true {
            if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
                let only = tuple.elements.first, only.label == nil
            {
                expression = only.expression
            } else if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3,
                sequence.elements.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true,
                let first = sequence.elements.first
            {
                expression = first
            } else if let cast = expression.as(AsExprSyntax.self) {
                expression = cast.expression
            } else if let unwrap = expression.as(ForceUnwrapExprSyntax.self) {
                expression = unwrap.expression
            } else if let inOut = expression.as(InOutExprSyntax.self) {
                expression = inOut.expression
            } else if let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
                call.trailingClosure == nil, call.arguments.first?.label == nil,
                let type = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
                type == "String" || type == "CFString" || type == "NSString",
                let argument = call.arguments.first?.expression,
                argument.strippingConversions.securityConstantName != nil
            {
                expression = argument
            } else {
                return expression
            }
        }
    }

    /// The name of a Security framework constant this expression is (`kSecClass`,
    /// `kSecAttrAccessibleAlways`, `errSecItemNotFound`, `kCFBooleanTrue`), after conversions.
    package var securityConstantName: String? {
        let expression = strippingConversionsShallow
        let name: String
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else if let member = expression.as(MemberAccessExprSyntax.self),
            member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Security"
        {
            name = member.declName.baseName.text
        } else {
            return nil
        }
        return name.hasPrefix("kSec") || name.hasPrefix("errSec") || name.hasPrefix("kCF") || name == "noErr"
            ? name : nil
    }

    /// Like ``strippingConversions`` but without the `String(…)` step (which itself needs this).
    private var strippingConversionsShallow: ExprSyntax {
        var expression = self
        while true {
            if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
                let only = tuple.elements.first, only.label == nil
            {
                expression = only.expression
            } else if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3,
                sequence.elements.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true,
                let first = sequence.elements.first
            {
                expression = first
            } else if let unwrap = expression.as(ForceUnwrapExprSyntax.self) {
                expression = unwrap.expression
            } else if let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
                let type = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
                type == "String" || type == "CFString", let argument = call.arguments.first?.expression
            {
                expression = argument
            } else {
                return expression
            }
        }
    }

    /// The variable this expression names (`query`, `self.query` → `query`), if it is one.
    package var referencedName: String? {
        let expression = strippingConversions
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = expression.as(MemberAccessExprSyntax.self),
            member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
        {
            return member.declName.baseName.text
        }
        return nil
    }

    /// Whether this is a literal true: `true`, `kCFBooleanTrue`, `1`, `NSNumber(value: true)`.
    package var isTrueLiteral: Bool {
        let expression = strippingConversions
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) {
            return boolean.literal.tokenKind == .keyword(.true)
        }
        if let integer = expression.as(IntegerLiteralExprSyntax.self) { return integer.literal.text == "1" }
        if expression.securityConstantName == "kCFBooleanTrue" { return true }
        if let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
            let argument = call.arguments.first?.expression
        {
            return argument.isTrueLiteral
        }
        return false
    }

    /// The text of the expression without trivia, for comparing two value expressions.
    package var comparableText: String { strippingConversions.trimmedDescription }
}

extension SequenceExprSyntax {
    /// `target = value` (the sequence is not folded, so `q[k] = v as String` is five elements:
    /// the cast belongs to the value). The value is nil when it is a longer expression.
    package var assignment: (target: ExprSyntax, value: ExprSyntax?)? {
        guard self.elements.count >= 3, self.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true else {
            return nil
        }
        let elements = Array(self.elements.prefix(5))
        if elements.count == 3 { return (elements[0], elements[2]) }
        if self.elements.count == 5, elements[3].is(UnresolvedAsExprSyntax.self) { return (elements[0], elements[2]) }
        return (elements[0], nil)
    }
}

extension FunctionCallExprSyntax {
    /// The called function's name: `SecItemAdd` for `SecItemAdd(…)`, `set` for `defaults.set(…)`.
    package var calleeName: String? {
        if let reference = calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = calledExpression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        return nil
    }

    /// The expression the function is called on: `defaults` for `defaults.set(…)`.
    package var calleeBase: ExprSyntax? {
        calledExpression.as(MemberAccessExprSyntax.self)?.base
    }

    /// The argument with a label, if there is one.
    package func argument(labeled label: String) -> ExprSyntax? {
        arguments.first { $0.label?.text == label }?.expression
    }
}

extension SyntaxProtocol {
    /// The nearest ancestor of a type.
    package func nearestAncestor<Ancestor: SyntaxProtocol>(_ type: Ancestor.Type) -> Ancestor? {
        var node = parent
        while let current = node {
            if let match = current.as(type) { return match }
            node = current.parent
        }
        return nil
    }
}

/// The four SecItem functions.
package enum SecItemFunction: String, Sendable {
    /// `SecItemAdd`.
    case add = "SecItemAdd"
    /// `SecItemUpdate`.
    case update = "SecItemUpdate"
    /// `SecItemDelete`.
    case delete = "SecItemDelete"
    /// `SecItemCopyMatching`.
    case copyMatching = "SecItemCopyMatching"

    /// The SecItem function a call calls, if any (`SecItemAdd(…)`, not `wrapper.SecItemAdd(…)`).
    package init?(call: FunctionCallExprSyntax) {
        guard let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) else { return nil }
        self.init(rawValue: reference.baseName.text)
    }
}
