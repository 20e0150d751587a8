import SwiftParser
import SwiftSyntax

/// Lints the text of one Swift file: parses it once, runs the rules whose subject appears in the
/// file, and drops what suppression comments turn off.
package struct SourceFileLinter: Sendable {
    /// The rules that run.
    package var enabledRules: Set<RuleID>

    /// A linter running `enabledRules` (all by default).
    package init(enabledRules: Set<RuleID> = Set(RuleID.allCases)) {
        self.enabledRules = enabledRules
    }

    /// The findings in one file, ordered by position.
    ///
    /// Swift that does not parse still gives a tree (with missing and unexpected nodes); the rules
    /// see what could be parsed.
    package func lint(path: String, bytes: [UInt8]) -> [Finding] {
        lint(path: path, parsed: ParsedSource(bytes: bytes))
    }

    /// Reads, checks and lints the file at `path`: its findings, or why it was not linted (see
    /// ``InputLimits``; a file the parser gave up on is not linted rather than half linted).
    package func lintFile(atPath path: String) -> FileLintOutcome {
        let bytes: [UInt8]
        switch SourceFileReader.bytes(atPath: path) {
        case .success(let read): bytes = read
        case .failure(let reason): return .notLinted(reason)
        }
        if let refusal = InputLimits.refusal(of: bytes) { return .notLinted(refusal) }
        let parsed = ParsedSource(bytes: bytes)
        if parsed.exceedsNestingLimit { return .notLinted(.nestingTooDeep) }
        return .linted(lint(path: path, parsed: parsed))
    }

    /// The findings in a file parsed beforehand (the benchmarks time parsing and rules apart).
    package func lint(path: String, parsed: ParsedSource) -> [Finding] {
        let text = parsed.text
        let tree = parsed.tree
        let context = FileLintContext(path: path, text: text, enabledRules: enabledRules)
        let rules = enabledRules
        let mentionsSecItem = text.contains("SecItem")

        if mentionsSecItem
            && !rules.isDisjoint(with: [.deleteThenAdd, .uncheckedStatus, .implicitAccessibility, .returnDataMatchAll])
        {
            let aliases =
                text.contains("= String(kSec") || text.contains("= kSec")
                ? SecurityAliases(tree: tree) : SecurityAliases()
            let visitor = QueryFlowVisitor(context: context, aliases: aliases)
            visitor.walk(tree)
            visitor.finish()
        }
        if rules.contains(.accessibleAlways) && (text.contains("lways") || text.contains("\"dk")) {
            AccessibleAlwaysVisitor(context: context).walk(tree)
        }
        if rules.contains(.insecureSecretStorage)
            && (text.contains("efaults") || text.contains("Storage") || text.contains("write(")
                || text.contains("createFile"))
        {
            InsecureStorageVisitor(context: context).walk(tree)
        }
        if rules.contains(.hardcodedSecret) {
            HardcodedSecretVisitor(context: context).walk(tree)
        }
        if rules.contains(.loggedSecret)
            && (text.contains("print") || text.contains("og") || text.contains("dump") || text.contains("fatalError"))
            && (mentionsSecItem || text.contains("eychain") || text.contains("alet") || text.contains("ault")
                || text.contains("ecureStorage"))
        {
            let learning = LoggedSecretVisitor(context: context, secretReturningFunctions: [], reports: false)
            learning.walk(tree)
            LoggedSecretVisitor(
                context: context, secretReturningFunctions: learning.functionsReturningSecrets, reports: true
            ).walk(tree)
        }
        if rules.contains(.secItemOnMainActor) && mentionsSecItem
            && (text.contains("MainActor") || text.contains(".main") || text.contains("View") || text.contains("App")
                || text.contains("Delegate") || text.contains("Responder"))
        {
            MainActorVisitor(context: context).walk(tree)
        }

        let suppressions = text.contains("keychain-lint:") ? Suppressions(tree: tree, context: context) : Suppressions()
        return context.findings
            .filter { !suppressions.suppresses($0) }
            .sorted { ($0.position, $0.rule.rawValue) < ($1.position, $1.rule.rawValue) }
    }
}

/// A file's text and its syntax tree.
package struct ParsedSource: Sendable {
    /// The bytes and lines.
    package let text: SourceText
    /// The tree swift-syntax parsed from them.
    package let tree: SourceFileSyntax

    /// Parses `bytes` as Swift, no deeper than ``InputLimits/maximumNestingLevel`` (the same
    /// limit in debug and release builds).
    package init(bytes: [UInt8]) {
        text = SourceText(bytes: bytes)
        tree = bytes.withUnsafeBufferPointer {
            Parser.parse(source: $0, maximumNestingLevel: InputLimits.maximumNestingLevel)
        }
    }

    /// Whether the parser stopped at its nesting limit and took the rest of the file as
    /// unexpected tokens, so that the rules would see only part of it.
    package var exceedsNestingLimit: Bool { tree.hasMaximumNestingLevelOverflow }
}
