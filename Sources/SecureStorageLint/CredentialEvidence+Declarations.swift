import SwiftSyntax

/// Where a name used in an expression was declared, as far as ``CredentialEvidence`` needs it.
struct LocalDeclaration {
    /// The external label of a parameter, when it differs from its name (`password` in
    /// `func save(password value: String)`).
    var label: String?
    /// The simple name of its declared type (`LoginInfo` for `LoginInfo?`).
    var type: String?
    /// Its initial value (`let data = Data(password.utf8)`, `if let token = response.token`).
    var initializer: ExprSyntax?
    /// A credential entry given to it after its binding (`dict["password"] = value`).
    var credentialEntry: String?
}

extension CredentialEvidence {
    /// The declaration of `name` visible at `node`: a local binding earlier in an enclosing block,
    /// an `if let`/`guard let`, a loop variable, a closure or function parameter, or a property of
    /// the enclosing type. Sixty-four ancestors and two hundred statements per block at most.
    func declaration(of name: String, at node: Syntax, budget: LookBackBudget) -> LocalDeclaration? {
        var child = node
        var ancestor = node.parent
        var levels = 0
        while let current = ancestor, levels < 64, budget.spend() {
            levels += 1
            if let found = declaration(of: name, in: current, below: child, budget: budget) { return found }
            if current.is(MemberBlockSyntax.self) { return nil }
            child = current
            ancestor = current.parent
        }
        return nil
    }

    private func declaration(
        of name: String, in current: Syntax, below child: Syntax, budget: LookBackBudget
    ) -> LocalDeclaration? {
        if let items = current.as(CodeBlockItemListSyntax.self) {
            return declaration(of: name, inStatements: items, before: child, budget: budget)
        }
        if let members = current.as(MemberBlockItemListSyntax.self) {
            for member in members.prefix(400) {
                guard let variable = member.decl.as(VariableDeclSyntax.self),
                    let found = Self.binding(of: name, in: variable)
                else { continue }
                return found
            }
            return nil
        }
        if let conditions = Self.conditions(of: current, enclosing: child) {
            for condition in conditions {
                guard let binding = condition.condition.as(OptionalBindingConditionSyntax.self),
                    binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
                else { continue }
                // `if let token` (shorthand) is the outer `token`: keep looking up.
                guard let initial = binding.initializer?.value else { return nil }
                return LocalDeclaration(
                    type: binding.typeAnnotation.map { CredentialDeclarationCollector.simpleTypeName($0.type) },
                    initializer: initial)
            }
            return nil
        }
        if let loop = current.as(ForStmtSyntax.self), child.id == loop.body.id,
            loop.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
        {
            return LocalDeclaration(initializer: loop.sequence)
        }
        if let closure = current.as(ClosureExprSyntax.self), let parameters = closure.signature?.parameterClause {
            switch parameters {
            case .simpleInput(let shorthand):
                if shorthand.contains(where: { $0.name.text == name }) { return LocalDeclaration() }
            case .parameterClause(let clause):
                for parameter in clause.parameters where (parameter.secondName ?? parameter.firstName).text == name {
                    return LocalDeclaration(
                        type: parameter.type.map(CredentialDeclarationCollector.simpleTypeName))
                }
            }
            return nil
        }
        let parameters: FunctionParameterListSyntax? =
            current.as(FunctionDeclSyntax.self)?.signature.parameterClause.parameters
            ?? current.as(InitializerDeclSyntax.self)?.signature.parameterClause.parameters
            ?? current.as(SubscriptDeclSyntax.self)?.parameterClause.parameters
        for parameter in parameters ?? [] where (parameter.secondName ?? parameter.firstName).text == name {
            let label = parameter.secondName == nil ? nil : parameter.firstName.text
            return LocalDeclaration(
                label: label == "_" ? nil : label, type: CredentialDeclarationCollector.simpleTypeName(parameter.type))
        }
        return nil
    }

    /// A binding of `name` among the statements before `child`, and the credential entries given
    /// to it between the binding and `child`.
    private func declaration(
        of name: String, inStatements items: CodeBlockItemListSyntax, before child: Syntax, budget: LookBackBudget
    ) -> LocalDeclaration? {
        let earlier = Array(statementIndex.statements(in: items, before: child, limit: 200))
        for (index, item) in earlier.enumerated().reversed() {
            if let variable = item.item.as(VariableDeclSyntax.self), var found = Self.binding(of: name, in: variable) {
                for later in earlier[(index + 1)...] where found.credentialEntry == nil {
                    found.credentialEntry = credentialEntry(givenTo: name, in: later, budget: budget)
                }
                return found
            }
            if let guardStatement = item.item.as(GuardStmtSyntax.self) {
                for condition in guardStatement.conditions {
                    guard let binding = condition.condition.as(OptionalBindingConditionSyntax.self),
                        binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name,
                        let initial = binding.initializer?.value
                    else { continue }
                    return LocalDeclaration(initializer: initial)
                }
            }
        }
        return nil
    }

    /// `dict["password"] = value`, `dict.setValue(token, forKey: "t")`, `dict.setObject(…)`,
    /// `user.password = value`.
    private func credentialEntry(givenTo name: String, in item: CodeBlockItemSyntax, budget: LookBackBudget) -> String?
    {
        guard budget.spend(), let expression = item.item.as(ExprSyntax.self) else { return nil }
        let statement = Self.unwrapped(expression)
        if let sequence = statement.as(SequenceExprSyntax.self), let (target, value) = sequence.assignment,
            let subscriptCall = target.as(SubscriptCallExprSyntax.self),
            subscriptCall.calledExpression.referencedName == name, let key = subscriptCall.arguments.first?.expression
        {
            if let value, isFlagOrNumber(value) { return nil }
            if let keyName = keyName(key) { return "the `\(keyName)` entry" }
            return value.flatMap { reason(for: $0) }
        }
        // `user.password = field.text`: the value now holds a credential.
        if let sequence = statement.as(SequenceExprSyntax.self), let (target, value) = sequence.assignment,
            let member = target.as(MemberAccessExprSyntax.self), member.base?.referencedName == name,
            CredentialNames.isCredential(member.declName.baseName.text)
        {
            if let value, isFlagOrNumber(value) { return nil }
            return "`\(member.declName.baseName.text)`"
        }
        if let call = statement.as(FunctionCallExprSyntax.self), call.calleeBase?.referencedName == name,
            ["setValue", "setObject", "updateValue"].contains(call.calleeName ?? ""),
            let value = call.arguments.first?.expression
        {
            if isFlagOrNumber(value) { return nil }
            if let key = call.argument(labeled: "forKey"), let keyName = keyName(key) {
                return "the `\(keyName)` entry"
            }
            return reason(for: value)
        }
        return nil
    }

    /// The declaration of `name` in a `let`/`var`, if it binds it.
    private static func binding(of name: String, in variable: VariableDeclSyntax) -> LocalDeclaration? {
        for binding in variable.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
        {
            return LocalDeclaration(
                type: binding.typeAnnotation.map { CredentialDeclarationCollector.simpleTypeName($0.type) },
                initializer: binding.initializer?.value)
        }
        return nil
    }

    /// The conditions of an `if`/`while` whose body is `child` (their bindings are visible there).
    private static func conditions(of node: Syntax, enclosing child: Syntax) -> ConditionElementListSyntax? {
        if let ifExpression = node.as(IfExprSyntax.self), child.id == ifExpression.body.id {
            return ifExpression.conditions
        }
        if let whileStatement = node.as(WhileStmtSyntax.self), child.id == whileStatement.body.id {
            return whileStatement.conditions
        }
        return nil
    }
}
