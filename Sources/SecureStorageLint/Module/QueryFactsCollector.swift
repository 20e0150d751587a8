import SwiftSyntax

/// One walk over a file for ``QueryFacts``: aliases of Security constants and computed query
/// properties (declarations outside functions, their bodies skipped), query builder functions
/// (their top-level statements only), and what each function calls (SecItem functions and
/// calls with arguments). Initializers, subscripts and property bodies are skipped.
final class QueryFactsCollector: SyntaxVisitor {
    /// Aliases in declaration order (the facts decide what two declarations of a name mean).
    private(set) var aliases: [(String, String)] = []
    /// Builders in declaration order.
    private(set) var builders: [(String, QueryBuilder)] = []
    /// Effects by function signature.
    private(set) var functions: [String: FunctionEffects] = [:]
    /// The signatures of the functions being walked, innermost last.
    private var enclosingFunctions: [String] = []

    init() { super.init(viewMode: .sourceAccurate) }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let signature = node.shortSignature
        enclosingFunctions.append(signature)
        if let body = node.body, let type = node.signature.returnClause?.type.trimmedDescription,
            type.contains("Dictionary") || (type.hasPrefix("[") && type.contains(":")),
            let builder = Self.builder(body.statements, parameters: node.signature.parameterClause.parameters),
            !builder.entries.isEmpty || builder.base != nil
        {
            builders.append((signature, builder))
        }
        return .visitChildren
    }
    override func visitPost(_ node: FunctionDeclSyntax) { enclosingFunctions.removeLast() }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        guard enclosingFunctions.isEmpty else { return .visitChildren }
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            let value = binding.initializer?.value ?? binding.accessorBlock.flatMap(Self.getterValue)
            guard let value else { continue }
            if let constant = Self.aliasedConstant(value) {
                aliases.append((name, constant))
            } else if binding.accessorBlock != nil || node.bindingSpecifier.tokenKind == .keyword(.let),
                value.strippingConversions.is(DictionaryExprSyntax.self),
                let builder = Self.builder(literalOrCall: value, parameters: [:])
            {
                builders.append(
                    (
                        name,
                        QueryBuilder(
                            parameters: [], entries: builder.entries,
                            isComplete: builder.isComplete, base: builder.base)
                    ))
            }
        }
        return .skipChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let function = enclosingFunctions.last else { return .visitChildren }
        if let secItem = SecItemFunction(call: node) {
            if secItem == .delete { functions[function, default: FunctionEffects()].deletes = true }
            if secItem == .add { functions[function, default: FunctionEffects()].adds = true }
        } else if !node.arguments.isEmpty, let callee = node.shortSignature, callee != function {
            functions[function, default: FunctionEffects()].calls.insert(callee)
        }
        return .visitChildren
    }

    // MARK: Summaries

    /// The constant a declaration's value names: `kSecAttrAccount as String`,
    /// `String(kSecAttrAccount)`, `toString(kSecAttrAccount)`.
    static func aliasedConstant(_ value: ExprSyntax) -> String? {
        let stripped = value.strippingConversions
        if let name = stripped.securityConstantName { return name.hasPrefix("kSec") ? name : nil }
        guard let call = stripped.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
            call.arguments.first?.label == nil, call.calleeName?.lowercased().contains("string") == true,
            let name = call.arguments.first?.expression.securityConstantName, name.hasPrefix("kSec")
        else { return nil }
        return name
    }

    /// The one expression a getter returns (`{ kSecAttrAccount as String }`, `{ get { return … } }`).
    private static func getterValue(_ block: AccessorBlockSyntax) -> ExprSyntax? {
        switch block.accessors {
        case .getter(let statements): return onlyValue(statements)
        case .accessors(let accessors):
            guard accessors.count == 1, let getter = accessors.first,
                getter.accessorSpecifier.tokenKind == .keyword(.get),
                let statements = getter.body?.statements
            else { return nil }
            return onlyValue(statements)
        }
    }

    private static func onlyValue(_ statements: CodeBlockItemListSyntax) -> ExprSyntax? {
        guard statements.count == 1, let item = statements.first?.item else { return nil }
        if let expression = item.as(ExprSyntax.self) { return expression }
        return item.as(ReturnStmtSyntax.self)?.expression
    }

    /// The builder a function body is: `[…]`, `return […]`, `otherBuilder(…)`, or
    /// `var query = […]; query[key] = value; …; return query` (assignments at the top level or
    /// directly inside an `if`).
    static func builder(_ statements: CodeBlockItemListSyntax, parameters: FunctionParameterListSyntax)
        -> QueryBuilder?
    {
        var indices: [String: Int] = [:]
        var summary: [QueryBuilder.Parameter] = []
        for (index, parameter) in parameters.enumerated() {
            indices[(parameter.secondName ?? parameter.firstName).text] = index
            summary.append(.init(label: parameter.firstName.text, hasDefault: parameter.defaultValue != nil))
        }
        if let value = onlyValue(statements) {
            guard var builder = builder(literalOrCall: value, parameters: indices) else { return nil }
            builder.parameters = summary
            return builder
        }
        guard statements.count <= 32, let last = statements.last?.item.as(ReturnStmtSyntax.self),
            let name = last.expression?.referencedName
        else { return nil }
        var builder: QueryBuilder?
        for item in statements.dropLast() {
            if let declaration = item.item.as(VariableDeclSyntax.self), let binding = declaration.bindings.first,
                binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name,
                let value = binding.initializer?.value
            {
                builder = Self.builder(literalOrCall: value, parameters: indices)
                if builder == nil { return nil }
            } else if builder != nil {
                record(item.item, into: &builder!, query: name, parameters: indices, depth: 0)
            }
        }
        builder?.parameters = summary
        return builder
    }

    /// Subscript assignments to the query in a statement (and one `if` deep).
    private static func record(
        _ item: CodeBlockItemSyntax.Item, into builder: inout QueryBuilder, query: String,
        parameters: [String: Int], depth: Int
    ) {
        if let ifExpression = item.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self)
            ?? item.as(IfExprSyntax.self), depth == 0
        {
            for nested in ifExpression.body.statements {
                record(nested.item, into: &builder, query: query, parameters: parameters, depth: 1)
            }
            return
        }
        let expression = item.as(ExprSyntax.self) ?? item.as(ExpressionStmtSyntax.self)?.expression
        if let sequence = expression?.as(SequenceExprSyntax.self), let (target, value) = sequence.assignment,
            let subscriptCall = target.as(SubscriptCallExprSyntax.self),
            subscriptCall.calledExpression.referencedName == query
        {
            guard let key = subscriptCall.arguments.first?.expression, let keyName = rawKeyName(key) else {
                builder.isComplete = false
                return
            }
            if let value, value.is(NilLiteralExprSyntax.self) {
                builder.entries[keyName] = nil
            } else {
                builder.entries[keyName] =
                    sequence.assignedExpression.flatMap { QueryTemplate.of($0, parameters: parameters) } ?? "?"
            }
        } else if let call = expression?.as(FunctionCallExprSyntax.self), call.calleeBase?.referencedName == query {
            builder.isComplete = false
        }
    }

    /// A builder from a dictionary literal or a call of another builder.
    private static func builder(literalOrCall value: ExprSyntax, parameters: [String: Int]) -> QueryBuilder? {
        let stripped = value.strippingConversions
        if let call = stripped.as(FunctionCallExprSyntax.self), let signature = call.shortSignature,
            call.trailingClosure == nil
        {
            let arguments = call.arguments.map { QueryTemplate.of($0.expression, parameters: parameters) ?? "?" }
            return QueryBuilder(
                parameters: [], entries: [:], isComplete: true,
                base: .init(signature: signature, labels: call.argumentLabels, arguments: arguments))
        }
        guard let literal = stripped.as(DictionaryExprSyntax.self) else { return nil }
        var builder = QueryBuilder(parameters: [], entries: [:], isComplete: true, base: nil)
        guard case .elements(let elements) = literal.content else { return builder }
        for element in elements {
            guard let key = rawKeyName(element.key) else {
                builder.isComplete = false
                continue
            }
            builder.entries[key] = QueryTemplate.of(element.value, parameters: parameters) ?? "?"
        }
        return builder
    }

    /// The name a key is written with: `kSecAttrAccount`, or `attrAccount` for `K.attrAccount`.
    static func rawKeyName(_ key: ExprSyntax) -> String? {
        if let constant = key.securityConstantName { return constant }
        return key.strippingConversions.lastName
    }
}

extension ExprSyntax {
    /// The last name of a reference or member chain: `attrAccount` for `K.attrAccount`,
    /// `Keys.Attr.attrAccount` or `attrAccount`.
    var lastName: String? {
        if let reference = self.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = self.as(MemberAccessExprSyntax.self), member.base != nil {
            return member.declName.baseName.text
        }
        return nil
    }
}
