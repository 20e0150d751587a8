import Foundation
import SwiftSyntax

/// Reports `unencrypted-database`: a credential stored in a database file that is not encrypted.
///
/// - Core Data: `object.setValue(password, forKey: "password")` in a file that imports Core Data,
///   `entity.password = …` where the module declares `@NSManaged var password`;
/// - SwiftData: a credential-named stored property of a `@Model` class;
/// - SQLite: `sqlite3_bind_text` of a credential, and `INSERT`/`UPDATE` statements naming a
///   credential column run with `sqlite3_exec`/`sqlite3_prepare_v2`, GRDB's `execute` or FMDB's
///   `executeUpdate`;
/// - Realm: `realm.add(object)`/`realm.create` of a value that holds a credential, and
///   credential-named properties set inside `realm.write { … }`;
/// - Couchbase Lite: `document.setString(password, forKey: …)` on a `MutableDocument`;
/// - YapDatabase: `transaction.setObject(password, forKey:inCollection:)`.
///
/// SQLite, Realm, Couchbase Lite and YapDatabase findings are silent in a module that configures
/// encryption (`Realm.Configuration(encryptionKey:)`, SQLCipher, `PRAGMA key` outside Apple's
/// `SQLite3`, YapDatabase's `cipherKeyBlock`); Core Data and SwiftData stores have no such key and
/// are reported regardless. Test files are not checked.
final class UnencryptedDatabaseVisitor: SyntaxVisitor {
    private let context: FileLintContext
    private let evidence: CredentialEvidence
    private let importsCoreData: Bool
    /// Whether the file makes Core Data objects (`insertNewObject`, `NSManagedObject`): then a
    /// credential-named member set on an object is an attribute, even when the model is generated
    /// from an `.xcdatamodeld` the lint cannot read.
    private let makesManagedObjects: Bool
    private let mentionsCouchbase: Bool
    /// Whether the module configures an encryption key for SQLite, Realm, Couchbase or Yap.
    private let databaseIsEncrypted: Bool
    /// Where Core Data findings were reported: one per save, and one per block without a save.
    private var reportedSaves: Set<SyntaxIdentifier> = []
    /// Depth of `realm.write { … }` closures around the walk.
    private var realmWriteDepth = 0

    init(
        context: FileLintContext, importsCoreData: Bool, makesManagedObjects: Bool, mentionsCouchbase: Bool,
        databaseIsEncrypted: Bool
    ) {
        self.databaseIsEncrypted = databaseIsEncrypted
        self.context = context
        evidence = CredentialEvidence(context: context)
        self.importsCoreData = importsCoreData
        self.makesManagedObjects = importsCoreData && makesManagedObjects
        self.mentionsCouchbase = mentionsCouchbase
        super.init(viewMode: .sourceAccurate)
    }

    // MARK: SwiftData

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        guard
            node.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Model" }
            )
        else { return .visitChildren }
        for member in node.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                !variable.modifiers.contains(where: { $0.name.text == "static" }),
                !variable.attributes.contains(where: {
                    ["Transient"].contains($0.as(AttributeSyntax.self)?.attributeName.trimmedDescription ?? "")
                })
            else { continue }
            for binding in variable.bindings where binding.accessorBlock == nil {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                    CredentialNames.isCredential(name), !isFlagOrNumber(binding)
                else { continue }
                context.report(
                    .unencryptedDatabase, at: binding,
                    "`\(name)` is a stored property of the SwiftData model `\(node.name.text)`, "
                        + "so the credential is saved in the clear in its SQLite store; "
                        + "keep it in the Keychain and store only a reference."
                )
            }
        }
        return .visitChildren
    }

    private func isFlagOrNumber(_ binding: PatternBindingSyntax) -> Bool {
        if let type = binding.typeAnnotation?.type,
            CredentialDeclarationCollector.flagOrNumberTypes.contains(
                CredentialDeclarationCollector.simpleTypeName(type))
        {
            return true
        }
        return binding.initializer.map { InsecureStorageVisitor.isFlagOrCount($0.value) } ?? false
    }

    // MARK: Calls

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let callee = node.calleeName else { return .visitChildren }
        if callee == "setValue", importsCoreData, node.argument(labeled: "forKey") != nil {
            if !isDefaultsLike(node.calleeBase), let reason = keyOrValueReason(node) {
                report(node, "\(reason) is set on a Core Data object, and the store is not encrypted")
            }
            return .visitChildren
        }
        guard !databaseIsEncrypted else { return .visitChildren }
        switch callee {
        case "putProperties" where mentionsCouchbase:
            if let value = node.arguments.first?.expression, let reason = evidence.reason(for: value) {
                report(
                    node,
                    "a credential (\(reason)) is put in a Couchbase Lite document, and the database is not encrypted")
            }
        case "setString", "setValue", "setData", "setBlob", "setDictionary":
            if mentionsCouchbase, node.argument(labeled: "forKey") != nil, !isDefaultsLike(node.calleeBase),
                let reason = keyOrValueReason(node)
            {
                report(node, "\(reason) is set on a Couchbase Lite document, and the database is not encrypted")
            }
        case "setObject" where node.argument(labeled: "inCollection") != nil:
            if let reason = keyOrValueReason(node) {
                report(node, "\(reason) is stored in a YapDatabase collection, and the database is not encrypted")
            }
        case "sqlite3_bind_text", "sqlite3_bind_blob", "sqlite3_bind_text16":
            if node.arguments.count >= 3, let value = Array(node.arguments)[2].expression as ExprSyntax?,
                let reason = evidence.reason(for: value)
            {
                report(node, "\(reason) is bound into an SQLite statement, and the database is not encrypted")
            }
        case "sqlite3_exec", "sqlite3_prepare_v2", "sqlite3_prepare", "sqlite3_prepare_v3", "execute", "executeUpdate",
            "executeStatements", "prepare", "run":
            if let column = credentialColumn(in: node) {
                report(node, "a credential (column `\(column)`) is written by SQL, and the database is not encrypted")
            }
        case "add" where isRealm(node.calleeBase), "create" where isRealm(node.calleeBase):
            if let value = node.arguments.first(where: { $0.label == nil || $0.label?.text == "value" })?.expression,
                let reason = evidence.reason(for: value)
            {
                report(node, "a credential (\(reason)) is added to a Realm that is not encrypted")
            }
        default:
            break
        }
        return .visitChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calleeName == "write",
            isRealm(call.calleeBase)
        {
            realmWriteDepth += 1
        }
        return .visitChildren
    }
    override func visitPost(_ node: ClosureExprSyntax) {
        if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calleeName == "write",
            isRealm(call.calleeBase)
        {
            realmWriteDepth -= 1
        }
    }

    // MARK: Assignments

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        // (`self.password = password` in an initializer is the model's own, reported at its declaration.)
        guard let (target, value) = node.assignment, let member = target.as(MemberAccessExprSyntax.self),
            let base = member.base, base.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind != .keyword(.self)
        else { return .visitChildren }
        let name = member.declName.baseName.text
        if let value, evidence.isFlagOrNumber(value) { return .visitChildren }
        if realmWriteDepth > 0, !databaseIsEncrypted, CredentialNames.isCredential(name) {
            report(target, "a credential (`\(name)`) is written to a Realm that is not encrypted")
        } else if importsCoreData && context.module.credentials.managedCredentialProperties.contains(name)
            || makesManagedObjects && CredentialNames.isCredential(name), !isPlainObject(base)
        {
            reportCoreDataAttribute(name, assignment: node)
        }
        return .visitChildren
    }

    /// Reports a credential attribute set on a Core Data object at the `save()` that follows it in
    /// its block (where the credential reaches the store), else at the assignment.
    private func reportCoreDataAttribute(_ name: String, assignment: SequenceExprSyntax) {
        var node = Syntax(assignment)
        var item: CodeBlockItemSyntax?
        for _ in 0..<4 {
            guard let parent = node.parent else { break }
            if let found = parent.as(CodeBlockItemSyntax.self) {
                item = found
                break
            }
            node = parent
        }
        let what = "a credential (`\(name)`) is set on a Core Data object and saved, and the store is not encrypted"
        guard let item, let list = item.parent?.as(CodeBlockItemListSyntax.self) else {
            report(assignment, what)
            return
        }
        guard !reportedSaves.contains(list.id) else { return }
        for later in evidence.statementIndex.statements(in: list, after: Syntax(item), limit: 20) {
            for token in later.tokens(viewMode: .sourceAccurate).prefix(400)
            where token.text == "save" || token.text == "saveContext" {
                guard
                    let call = token.parent?.parent?.as(FunctionCallExprSyntax.self)
                        ?? token.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
                else { continue }
                if reportedSaves.insert(call.id).inserted { report(call, what) }
                return
            }
        }
        reportedSaves.insert(list.id)
        report(assignment, what)
    }

    /// Whether `base` names a local made by a plain initializer (`let user = RealmUser()`), which
    /// a Core Data object is not (`insertNewObject`, `Entity(context:)`).
    private func isPlainObject(_ base: ExprSyntax) -> Bool {
        let stripped = CredentialEvidence.unwrapped(base)
        guard let name = stripped.as(DeclReferenceExprSyntax.self)?.baseName.text,
            let initial = evidence.declaration(of: name, at: Syntax(stripped), budget: LookBackBudget())?.initializer,
            let call = CredentialEvidence.unwrapped(initial).as(FunctionCallExprSyntax.self), call.calleeBase == nil,
            let callee = call.calleeName, callee.first?.isUppercase == true
        else { return false }
        return !call.arguments.contains { ["context", "entity", "insertInto"].contains($0.label?.text ?? "") }
    }

    // MARK: Judging

    private func report(_ node: some SyntaxProtocol, _ what: String) {
        context.report(
            .unencryptedDatabase, at: node,
            "\(what); keep it in the Keychain and store only a reference, or encrypt the database.")
    }

    /// A credential named by the `forKey:` key, or held by the first argument.
    private func keyOrValueReason(_ call: FunctionCallExprSyntax) -> String? {
        guard let value = call.arguments.first?.expression, !evidence.isFlagOrNumber(value) else { return nil }
        if let key = call.argument(labeled: "forKey"), let name = evidence.keyName(key) {
            return "a credential (key `\(name)`)"
        }
        return evidence.reason(for: value).map { "a credential (\($0))" }
    }

    /// The credential-named column of an `INSERT` or `UPDATE` statement given to the call, as a
    /// literal or a local name bound to one.
    private func credentialColumn(in call: FunctionCallExprSyntax) -> String? {
        // With its values given beside it (GRDB's `arguments:`, FMDB's `withArgumentsIn:`), the
        // statement writes a credential only if one of them holds one (not `wrappedSecretKey`).
        let valueLabels: Set<String> = ["arguments", "withArgumentsIn", "withArgumentsInArray", "values"]
        if let values = call.arguments.first(where: { valueLabels.contains($0.label?.text ?? "") })?.expression,
            let array = CredentialEvidence.unwrapped(values).as(ArrayExprSyntax.self),
            !array.elements.contains(where: { evidence.reason(for: $0.expression) != nil })
        {
            return nil
        }
        for argument in call.arguments.prefix(3) {
            var expression = CredentialEvidence.unwrapped(argument.expression)
            if let name = expression.as(DeclReferenceExprSyntax.self)?.baseName.text,
                let initial = evidence.declaration(of: name, at: Syntax(expression), budget: LookBackBudget())?
                    .initializer
            {
                expression = CredentialEvidence.unwrapped(initial)
            }
            guard let literal = expression.as(StringLiteralExprSyntax.self) else { continue }
            let text = literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined(
                separator: " ")
            if let column = SQLColumns.credentialColumn(inWriteStatement: text) { return column }
        }
        return nil
    }

    /// `realm`, `self.realm`, `try Realm()`, `try! Realm(configuration: …)`.
    private func isRealm(_ base: ExprSyntax?) -> Bool {
        guard let base else { return false }
        let stripped = CredentialEvidence.unwrapped(base)
        if let call = stripped.as(FunctionCallExprSyntax.self) { return call.calleeName == "Realm" }
        guard let name = stripped.referencedName else { return false }
        return CredentialNames.words(of: name).last == "realm"
    }

    private func isDefaultsLike(_ base: ExprSyntax?) -> Bool {
        guard let base else { return false }
        let text = base.trimmedDescription
        return text.contains("UserDefaults") || text.contains("efaults") || text.contains("Ubiquitous")
    }
}

/// The columns an SQL `INSERT` or `UPDATE` writes, as far as a credential-named one is concerned.
enum SQLColumns {
    /// The first credential-named column written by `INSERT … (a, b) VALUES` or `UPDATE … SET a = ?`.
    static func credentialColumn(inWriteStatement sql: String) -> String? {
        let columnText: Substring
        if let insert = sql.range(of: "INSERT", options: .caseInsensitive),
            let open = sql[insert.upperBound...].firstIndex(of: "("), let close = sql[open...].firstIndex(of: ")")
        {
            columnText = sql[sql.index(after: open)..<close]
        } else if let update = sql.range(of: "UPDATE", options: .caseInsensitive),
            let set = sql.range(of: " SET ", options: .caseInsensitive, range: update.upperBound..<sql.endIndex)
        {
            let end =
                sql.range(of: " WHERE ", options: .caseInsensitive, range: set.upperBound..<sql.endIndex)?
                .lowerBound ?? sql.endIndex
            columnText = sql[set.upperBound..<end]
        } else {
            return nil
        }
        for part in columnText.split(separator: ",").prefix(64) {
            let column = part.split(separator: "=").first?.trimmingCharacters(
                in: CharacterSet(charactersIn: " \"'`[]\n\t"))
            if let column, !column.isEmpty, CredentialNames.isCredential(column) { return column }
        }
        return nil
    }
}
