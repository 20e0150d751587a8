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
        let parsed = ParsedSource(bytes: bytes)
        return lint(path: path, parsed: parsed, module: .ofSingleFile(parsed, path: path))
    }

    /// The findings in several files that form one module, ordered by file and position: the
    /// facts of every file are collected first, and each file is linted knowing them.
    package func lint(module files: [(path: String, bytes: [UInt8])]) -> [Finding] {
        let parsed = files.map { (path: $0.path, source: ParsedSource(bytes: $0.bytes)) }
        var facts = ModuleFacts()
        for file in parsed { facts.merge(.collect(from: file.source, path: file.path)) }
        facts.resolve()
        return parsed.flatMap { lint(path: $0.path, parsed: $0.source, module: facts) }
    }

    /// Reads and checks the file at `path` and collects its module facts, or says why it cannot
    /// be linted (the first of the two passes over a module; see ``lintFile(atPath:module:)``).
    package func collectFacts(atPath path: String) -> FactsOutcome {
        switch parse(atPath: path) {
        case .success(let parsed): .collected(.collect(from: parsed, path: path))
        case .failure(let reason): .notLinted(reason)
        }
    }

    /// Reads, checks and lints the file at `path`: its findings, or why it was not linted (see
    /// ``InputLimits``; a file the parser gave up on is not linted rather than half linted).
    ///
    /// `module` is what the other files of its module declare; without it, the file is its own
    /// module.
    /// `isTestCode` overrides what the path alone says (``TestCodePaths``).
    package func lintFile(atPath path: String, module: ModuleFacts? = nil, isTestCode: Bool? = nil) -> FileLintOutcome {
        switch parse(atPath: path) {
        case .success(let parsed):
            .linted(
                lint(
                    path: path, parsed: parsed, module: module ?? .ofSingleFile(parsed, path: path),
                    isTestCode: isTestCode))
        case .failure(let reason): .notLinted(reason)
        }
    }

    /// The file at `path` read, checked against ``InputLimits`` and parsed.
    private func parse(atPath path: String) -> Result<ParsedSource, NotLintedReason> {
        let bytes: [UInt8]
        switch SourceFileReader.bytes(atPath: path) {
        case .success(let read): bytes = read
        case .failure(let reason): return .failure(reason)
        }
        if let refusal = InputLimits.refusal(of: bytes) { return .failure(refusal) }
        let parsed = ParsedSource(bytes: bytes)
        if parsed.exceedsNestingLimit { return .failure(.nestingTooDeep) }
        return .success(parsed)
    }

    /// The findings in a file parsed beforehand (the benchmarks time parsing and rules apart),
    /// knowing what its module declares.
    package func lint(path: String, parsed: ParsedSource, module: ModuleFacts, isTestCode: Bool? = nil) -> [Finding] {
        let text = parsed.text
        let tree = parsed.tree
        let context = FileLintContext(
            path: path, text: text, enabledRules: enabledRules, module: module, isTestFile: isTestCode)
        let rules = enabledRules
        let mentionsSecItem = text.contains("SecItem")

        // A file without SecItem calls can still delete and add through the module's functions.
        if !rules.isDisjoint(with: [.deleteThenAdd, .uncheckedStatus, .implicitAccessibility, .returnDataMatchAll])
            && (mentionsSecItem
                || rules.contains(.deleteThenAdd) && module.queries.mentionsDeletingFunction(in: text))
        {
            let visitor = QueryFlowVisitor(context: context)
            visitor.walk(tree)
            visitor.finish()
        }
        if rules.contains(.accessibleAlways) && (text.contains("lways") || text.contains("\"dk")) {
            AccessibleAlwaysVisitor(context: context).walk(tree)
        }
        if rules.contains(.insecureSecretStorage)
            && (text.contains("efaults") || text.contains("Storage") || text.contains("write(")
                || text.contains("createFile") || text.contains("archiveRootObject") || text.contains("copyItem")
                || text.contains("moveItem"))
        {
            InsecureStorageVisitor(context: context).walk(tree)
        }
        if rules.contains(.unencryptedDatabase) && !context.isTestFile
            && (text.contains("sqlite3_") || text.contains("INSERT") || text.contains("insert")
                || text.contains("UPDATE") || text.contains("update") || text.contains("ealm")
                || text.contains("CoreData") || text.contains("@Model") || text.contains("MutableDocument")
                || text.contains("CBLDatabase")
                || text.contains("inCollection") || !module.credentials.managedCredentialProperties.isEmpty)
        {
            UnencryptedDatabaseVisitor(
                context: context, importsCoreData: text.contains("import CoreData"),
                makesManagedObjects: text.contains("insertNewObject") || text.contains("NSManagedObject"),
                mentionsCouchbase: text.contains("MutableDocument") || text.contains("CBLDatabase"),
                databaseIsEncrypted: module.credentials.configuresDatabaseEncryption
            ).walk(tree)
        }
        if rules.contains(.exposedSecret) && !context.isTestFile
            && (text.contains("Pasteboard") || text.contains("HTTPCookie") || text.contains("storeCachedResponse"))
        {
            ExposedSecretVisitor(context: context).walk(tree)
        }
        if rules.contains(.hardcodedSecret) {
            HardcodedSecretVisitor(context: context).walk(tree)
        }
        // Any file that prints or logs: credentials are known by their names as well as by the keychain.
        if rules.contains(.loggedSecret)
            && (text.contains("print") || text.contains("og") || text.contains("dump") || text.contains("fatalError")
                || text.contains("Failure"))
        {
            // The first pass learns which functions return keychain values; without the keychain
            // in the file there are none.
            var secretReturningFunctions: Set<String> = []
            if mentionsSecItem || text.contains("eychain") || text.contains("alet") || text.contains("ault")
                || text.contains("ecureStorage")
            {
                let learning = LoggedSecretVisitor(context: context, secretReturningFunctions: [], reports: false)
                learning.walk(tree)
                secretReturningFunctions = learning.functionsReturningSecrets
            }
            LoggedSecretVisitor(context: context, secretReturningFunctions: secretReturningFunctions, reports: true)
                .walk(tree)
        }
        // (Any file that calls SecItem: its types may be main-actor isolated by another file.)
        if rules.contains(.secItemOnMainActor) && mentionsSecItem {
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
