import SwiftSyntax

/// Reports `insecure-secret-storage`: a credential written to `UserDefaults` (`set…(_:forKey:)`,
/// also through optional chaining, subscripts, `@AppStorage`, `@SceneStorage`),
/// `NSUbiquitousKeyValueStore`, or a file written without a data-protection option (`write(to:)`,
/// `write(toFile:)` of `Data`, `String` and `NSDictionary` values, `FileManager.createFile`,
/// `NSKeyedArchiver.archiveRootObject(_:toFile:)`).
///
/// A write is a credential's when the key, the property, the value or the destination is named
/// like one (`authToken`, `"api_key"`, `Keys.token` whose value is `"auth_token"`, `for key in
/// ["user_password", …]`), when ``CredentialEvidence`` traces the value to one (`let data =
/// Data(password.utf8)`, `JSONEncoder().encode(credentials)`), and every write is one in a source
/// file named like `*Auth*`, `*Secret*` or `*Credential*` (test files excepted: they write bad data
/// on purpose). Flags and counts are never credentials (`set(isSessionActive, forKey: "session")`).
final class InsecureStorageVisitor: SyntaxVisitor {
    private let context: FileLintContext
    /// Where values come from.
    private let evidence: CredentialEvidence
    /// Whether the file's name says it handles credentials.
    private let isCredentialFile: Bool
    /// Names bound to `UserDefaults.standard`, `UserDefaults(suiteName:)` and the like.
    private var defaultsNames: Set<String> = []
    /// Loop variables that range over credential-like string literals, innermost last.
    private var credentialLoopVariables: [Set<String>] = []

    private static let defaultsSetters: Set<String> = [
        "set", "setValue", "setObject", "setString", "setData", "setBool", "setInteger", "setDictionary", "setArray"
    ]
    private static let protectionOptions = [
        "completeFileProtection", "protectionKey", "FileProtectionType", "protectionComplete"
    ]

    init(context: FileLintContext) {
        self.context = context
        evidence = CredentialEvidence(context: context)
        isCredentialFile = !context.isTestFile && InsecureStorageVisitor.isCredentialFileName(context.fileName)
        super.init(viewMode: .sourceAccurate)
    }

    static func isCredentialFileName(_ name: Substring) -> Bool {
        CredentialNames.words(of: String(name.dropLast(name.hasSuffix(".swift") ? 6 : 0))).contains { word in
            (word.hasPrefix("auth") && !word.hasPrefix("author")) || word.hasPrefix("authoriz")
                || word.hasPrefix("secret") || word.hasPrefix("credential")
        }
    }

    // MARK: Context

    /// Whether the walk is inside `extension UserDefaults`, where `set(_:forKey:)` and `self.set` are its own.
    private var defaultsExtensionDepth = 0

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        if ["UserDefaults", "NSUbiquitousKeyValueStore"].contains(node.extendedType.trimmedDescription) {
            defaultsExtensionDepth += 1
        }
        return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) {
        if ["UserDefaults", "NSUbiquitousKeyValueStore"].contains(node.extendedType.trimmedDescription) {
            defaultsExtensionDepth -= 1
        }
    }

    override func visit(_ node: SourceFileSyntax) -> SyntaxVisitorContinueKind {
        // Properties bound to a store may be declared after the methods that use them.
        let collector = StoreBindingCollector(viewMode: .sourceAccurate)
        collector.walk(node)
        for (name, type) in collector.typedBindings where isDefaultsType(type) { defaultsNames.insert(name) }
        for (name, value) in collector.bindings where isDefaultsStore(value) { defaultsNames.insert(name) }
        return .visitChildren
    }

    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
        var names: Set<String> = []
        if literalStrings(in: node.sequence).contains(where: CredentialNames.isCredential) {
            for token in node.pattern.tokens(viewMode: .sourceAccurate) where token.tokenKind.isIdentifier {
                names.insert(token.text)
            }
        }
        credentialLoopVariables.append(names)
        return .visitChildren
    }
    override func visitPost(_ node: ForStmtSyntax) { credentialLoopVariables.removeLast() }

    // MARK: Sinks

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let callee = node.calleeName else { return .visitChildren }
        if Self.defaultsSetters.contains(callee), let key = node.argument(labeled: "forKey"),
            isDefaultsReceiver(node.calleeBase)
        {
            let base = node.calleeBase ?? ExprSyntax(DeclReferenceExprSyntax(baseName: .identifier("UserDefaults")))
            let value = node.arguments.first?.expression
            if node.arguments.first?.label == nil, let reason = credentialReason(key: key, value: value) {
                context.report(
                    .insecureSecretStorage, at: node,
                    "\(reason) is written to \(storeName(base)), which is a plain property list that backups and other processes can read; store it in the Keychain."
                )
            }
        } else if callee == "write", let first = node.arguments.first, ["to", "toFile"].contains(first.label?.text),
            !first.expression.is(InOutExprSyntax.self), !mentionsProtection(node.arguments),
            let receiver = node.calleeBase
        {
            // (`write(to: &stream)` is TextOutputStreamable's, not a file; `logger.write(entry, to: stream)`
            // is a project's own method.)
            // Tests write fixtures (keys, PINs, corrupt files) to temporary files on purpose.
            if !context.isTestFile, let reason = fileWriteReason(destination: first.expression, value: receiver) {
                context.report(
                    .insecureSecretStorage, at: node,
                    "\(reason) is written to a file\(backupNote(first.expression)) without data protection "
                        + "(no .completeFileProtection option); "
                        + "store it in the Keychain, or write it with .completeFileProtection at least."
                )
            }
        } else if callee == "archiveRootObject", !context.isTestFile,
            node.calleeBase?.trimmedDescription.hasSuffix("NSKeyedArchiver") == true,
            let path = node.argument(labeled: "toFile"), let object = node.arguments.first?.expression
        {
            if let reason = fileWriteReason(destination: path, value: object, valueIsWritable: true) {
                context.report(
                    .insecureSecretStorage, at: node,
                    "\(reason) is archived to a file\(backupNote(path)) without data protection; "
                        + "store it in the Keychain."
                )
            }
        } else if callee == "copyItem" || callee == "moveItem", !context.isTestFile,
            let destination = node.argument(labeled: "toPath") ?? node.argument(labeled: "to"),
            let name = destinationCredentialName(destination)
        {
            context.report(
                .insecureSecretStorage, at: node,
                "a credential file (`\(name)`) is copied\(backupNote(destination)) without data protection; "
                    + "keep its contents in the Keychain."
            )
        } else if callee == "createFile", !context.isTestFile, let path = node.argument(labeled: "atPath"),
            !mentionsProtection(node.arguments)
        {
            if let contents = node.argument(labeled: "contents"),
                let reason = fileWriteReason(destination: path, value: contents, valueIsWritable: true)
            {
                context.report(
                    .insecureSecretStorage, at: node,
                    "\(reason) is written to a file created without a FileProtectionType; store it in the Keychain.")
            }
        }
        return .visitChildren
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        // `defaults["token"] = value`, `Defaults[.authToken] = value`.
        guard let (assignedTo, value) = node.assignment,
            let target = assignedTo.as(SubscriptCallExprSyntax.self), let key = target.arguments.first?.expression,
            isDefaultsStore(target.calledExpression)
                || target.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Defaults"
        else {
            return .visitChildren
        }
        if let reason = credentialReason(key: key, value: value) {
            context.report(
                .insecureSecretStorage, at: target,
                "\(reason) is written to \(storeName(target.calledExpression)), which is a plain property list that backups and other processes can read; store it in the Keychain."
            )
        }
        return .visitChildren
    }

    override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
        guard let name = node.attributeName.as(IdentifierTypeSyntax.self)?.name.text,
            name == "AppStorage" || name == "SceneStorage",
            let variable = node.parent?.parent?.as(VariableDeclSyntax.self)
        else { return .skipChildren }
        let key: String? = {
            guard case .argumentList(let arguments)? = node.arguments, let first = arguments.first?.expression else {
                return nil
            }
            return literalStrings(in: first).first
        }()
        let property = variable.bindings.first?.pattern.trimmedDescription ?? ""
        // `@AppStorage("requirePasscode") var passcode = true`: a setting about a credential.
        if let initial = variable.bindings.first?.initializer?.value, Self.isFlagOrCount(initial) {
            return .skipChildren
        }
        if let type = variable.bindings.first?.typeAnnotation?.type.trimmedDescription,
            ["Bool", "Int", "Double", "Date"].contains(type)
        {
            return .skipChildren
        }
        if isCredentialFile || key.map(CredentialNames.isCredential) == true || CredentialNames.isCredential(property) {
            context.report(
                .insecureSecretStorage, at: node,
                "@\(name) keeps `\(property)` in \(name == "AppStorage" ? "UserDefaults" : "the scene's restoration state"), a plain property list; a credential belongs in the Keychain."
            )
        }
        return .skipChildren
    }

    // MARK: Judging

    /// Why a write is a credential's (`the value of authToken`), or nil.
    private func credentialReason(key: ExprSyntax, value: ExprSyntax?) -> String? {
        // A flag or a count is not a credential, whatever it is about (`authToken != nil`, `true`,
        // `isSessionActive`, a `Bool` parameter).
        if let value, evidence.isFlagOrNumber(value) { return nil }
        // A push token's key (`forKey: "pushToken"`, `Keys.deviceToken`): the value is an address, whatever
        // it is called (`set(token, forKey: "pushToken")`).
        if let name = Self.keyText(key), CredentialNames.isPushAddress(name) { return nil }
        if let name = evidence.keyName(key) ?? credentialName(in: key) { return "a credential (key `\(name)`)" }
        if let value, let name = Self.valueName(value), credentialLoopVariables.contains(where: { $0.contains(name) }) {
            return "a credential (`\(name)`)"
        }
        if let value, let reason = evidence.reason(for: value) { return "a credential (\(reason))" }
        if isCredentialFile && !Self.namesASetting(key) {
            return "a value in \(context.fileName), a file that handles credentials,"
        }
        return nil
    }

    /// Whether a key is named like a setting or flag (`Keys.didMigrateAuthenticationsKey`, `"isLoggedIn"`).
    private static func namesASetting(_ key: ExprSyntax) -> Bool {
        guard let name = keyText(key) else { return false }
        let words = CredentialNames.words(of: name)
        guard let first = words.first, words.count > 1 else { return false }
        return ["is", "has", "did", "should", "was", "can", "use", "enable", "show"].contains(first)
    }

    /// The text a key names: a literal's content, or a constant's name (`Keys.pushToken` → `pushToken`).
    private static func keyText(_ key: ExprSyntax) -> String? {
        let stripped = CredentialEvidence.unwrapped(key)
        if let literal = stripped.as(StringLiteralExprSyntax.self) {
            return CredentialDeclarationCollector.plainText(literal)
        } else if let member = stripped.as(MemberAccessExprSyntax.self) {
            return member.declName.baseName.text
        } else if let reference = stripped.as(DeclReferenceExprSyntax.self) {
            return reference.baseName.text
        }
        return nil
    }

    /// Why a file write is a credential's: the value holds one, or the destination is named like
    /// one (or the file handles credentials) and the value is file content (`Data`, a `String`,
    /// an `NSDictionary`, encoded data; not a project's own type with a `write(to:)` method).
    private func fileWriteReason(destination: ExprSyntax, value: ExprSyntax, valueIsWritable: Bool = false) -> String? {
        if evidence.isFlagOrNumber(value) { return nil }
        if let reason = evidence.reason(for: value) { return "a credential (\(reason))" }
        guard valueIsWritable || FileContent.isFileContent(value, evidence: evidence) else { return nil }
        if let name = destinationCredentialName(destination) { return "a credential (file `\(name)`)" }
        if isCredentialFile { return "a value in \(context.fileName), a file that handles credentials," }
        return nil
    }

    /// The credential a destination path names, directly (`"token.json"`) or through the local or
    /// property it names (`let plistPath = documents + "/Credentials.plist"`).
    private func destinationCredentialName(_ destination: ExprSyntax) -> String? {
        if let name = credentialName(in: destination) { return name }
        guard let name = CredentialEvidence.unwrapped(destination).referencedName,
            let initial = evidence.declaration(of: name, at: Syntax(destination), budget: LookBackBudget())?.initializer
        else { return nil }
        return credentialName(in: initial)
    }

    /// `` in Documents, which is backed up,`` when the destination is under Documents or Library.
    private func backupNote(_ destination: ExprSyntax) -> String {
        FileContent.isBackedUpLocation(destination, evidence: evidence)
            ? " in Documents or Library, which is backed up," : ""
    }

    /// The first credential-like identifier, string or loop variable in an expression.
    /// String contents count for keys and paths (`"auth_token"`, `"token.json"`), not for values
    /// (a value's text is data, not a name).
    private func credentialName(in expression: ExprSyntax, includingStrings: Bool = true) -> String? {
        for token in expression.tokens(viewMode: .sourceAccurate) {
            switch token.tokenKind {
            case .identifier(let name):
                if credentialLoopVariables.contains(where: { $0.contains(name) }) { return name }
                if CredentialNames.isCredential(name) { return name }
            case .stringSegment(let text):
                if includingStrings && CredentialNames.isCredential(text) { return text }
            default:
                continue
            }
        }
        return nil
    }

    /// Whether the options or attributes protect the file, or come from a variable (unknown here:
    /// the rule stays silent rather than guess).
    private func mentionsProtection(_ arguments: LabeledExprListSyntax) -> Bool {
        arguments.contains { argument in
            guard argument.label?.text == "options" || argument.label?.text == "attributes" else { return false }
            let expression = argument.expression.strippingConversions
            if expression.is(DeclReferenceExprSyntax.self) || expression.is(FunctionCallExprSyntax.self) { return true }
            let text = expression.trimmedDescription
            return Self.protectionOptions.contains { text.contains($0) } && !text.contains("noFileProtection")
                && !text.contains(".none")
        }
    }

    /// `true`, `token != nil`, `token.isEmpty`, `password.count`: about a credential, not one.
    static func isFlagOrCount(_ value: ExprSyntax) -> Bool {
        let stripped = value.strippingConversions
        if stripped.is(BooleanLiteralExprSyntax.self) || stripped.is(IntegerLiteralExprSyntax.self)
            || stripped.is(PrefixOperatorExprSyntax.self)
        {
            return true
        }
        if let sequence = stripped.as(SequenceExprSyntax.self) {
            return sequence.elements.contains { element in
                guard let text = element.as(BinaryOperatorExprSyntax.self)?.operator.text else { return false }
                return ["==", "!=", "&&", "||", "<", ">", "<=", ">="].contains(text)
            }
        }
        if let member = stripped.as(MemberAccessExprSyntax.self) {
            return ["isEmpty", "count", "isValid", "isExpired", "hashValue"].contains(member.declName.baseName.text)
        }
        return false
    }

    /// The name a written value goes by: `token`, `session.token` → `token`,
    /// `credentials.username` → `username`, `token.data(using: .utf8)` → `token`.
    static func valueName(_ value: ExprSyntax) -> String? {
        let stripped = value.strippingConversions
        if let reference = stripped.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = stripped.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        if let optional = stripped.as(OptionalChainingExprSyntax.self) { return valueName(optional.expression) }
        if let call = stripped.as(FunctionCallExprSyntax.self), let base = call.calleeBase { return valueName(base) }
        if let call = stripped.as(FunctionCallExprSyntax.self),
            call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Data",
            let argument = call.arguments.first?.expression
        {
            return valueName(argument)
        }
        return nil
    }

    /// Whether an expression is a defaults store: `UserDefaults.standard`, `UserDefaults(suiteName:)`,
    /// `NSUbiquitousKeyValueStore.default`, or a name bound to one or named `defaults`.
    private func isDefaultsStore(_ expression: ExprSyntax) -> Bool {
        let stripped = CredentialEvidence.unwrapped(expression)
        if let name = stripped.referencedName {
            if defaultsNames.contains(name) { return true }
            let words = CredentialNames.words(of: name)
            return words.last == "defaults" || words.contains("defaults") && words.last == "store"
        }
        if let member = stripped.as(MemberAccessExprSyntax.self), let base = member.base {
            return isDefaultsType(base) || isDefaultsStore(base)
        }
        if let call = stripped.as(FunctionCallExprSyntax.self) {
            return isDefaultsType(call.calledExpression)
        }
        return false
    }

    /// The receiver of a setter: a defaults store, or `self`/none inside `extension UserDefaults`.
    private func isDefaultsReceiver(_ base: ExprSyntax?) -> Bool {
        guard let base else { return defaultsExtensionDepth > 0 }
        if defaultsExtensionDepth > 0, base.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
            return true
        }
        return isDefaultsStore(base)
    }

    private func isDefaultsType(_ expression: ExprSyntax) -> Bool {
        guard let name = CredentialEvidence.unwrapped(expression).as(DeclReferenceExprSyntax.self)?.baseName.text
        else { return false }
        return name == "UserDefaults" || name == "NSUbiquitousKeyValueStore" || name == "NSUserDefaults"
    }

    private func storeName(_ expression: ExprSyntax) -> String {
        expression.trimmedDescription.contains("Ubiquitous")
            ? "iCloud key-value storage (NSUbiquitousKeyValueStore)" : "UserDefaults"
    }

    private func literalStrings(in expression: ExprSyntax) -> [String] {
        expression.tokens(viewMode: .sourceAccurate).compactMap { token in
            if case .stringSegment(let text) = token.tokenKind { return text }
            return nil
        }
    }
}

extension TokenKind {
    /// Whether the token is an identifier.
    var isIdentifier: Bool {
        if case .identifier = self { return true }
        return false
    }
}
