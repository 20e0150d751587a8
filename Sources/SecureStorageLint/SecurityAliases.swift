import SwiftSyntax

/// Names the module gives Security constants, as some wrappers do to shorten their queries
/// (`private let ReturnData = String(kSecReturnData)`, `enum K { static let attrAccount =
/// kSecAttrAccount as String }` then `K.attrAccount`, `static var klass: String { toString(kSecClass) }`),
/// declared in any file of the module (``QueryFacts/aliases``).
struct SecurityAliases {
    private let names: [String: String]

    /// No aliases.
    init() { names = [:] }

    /// The aliases the module declares.
    init(facts: QueryFacts) { names = facts.aliases }

    /// The constant an expression is or names: `kSecClass`, or `Class` / `K.attrClass` where
    /// `let Class = String(kSecClass)`.
    func constantName(_ expression: ExprSyntax) -> String? {
        if let name = expression.securityConstantName { return name }
        guard !names.isEmpty, let name = expression.strippingConversions.lastName else { return nil }
        return names[name]
    }
}
