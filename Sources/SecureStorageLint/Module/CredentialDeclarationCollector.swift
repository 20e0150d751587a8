import Foundation
import SwiftSyntax

/// Walks one file for the declarations ``CredentialFacts`` keeps: stored properties named like
/// credentials, string constants whose literal names one, `@NSManaged` credential properties, and
/// database encryption set up anywhere in the file.
final class CredentialDeclarationCollector: SyntaxVisitor {
    /// Type name → what holds the credential (`` `password` ``).
    private(set) var credentialTypes: [String: String] = [:]
    /// Type name → simple type names of its stored properties.
    private(set) var propertyTypes: [String: Set<String>] = [:]
    /// `name` and `Type.name` of credential-naming string constants.
    private(set) var keyConstants: Set<String> = []
    /// `@NSManaged` properties named like a credential.
    private(set) var managedProperties: Set<String> = []
    /// Types that declare their own `description` or `debugDescription` (in the type or an extension).
    private(set) var selfDescribingTypes: Set<String> = []
    /// Classes and actors declared (printed as their type's name).
    private(set) var referenceTypes: Set<String> = []
    /// Structs and enums declared (printed with their stored properties).
    private(set) var valueTypes: Set<String> = []
    /// Enclosing type and extension names, innermost last.
    private var typeNames: [String] = []

    /// Types whose stored properties are settings or counts, never credentials.
    static let flagOrNumberTypes: Set<String> = [
        "Bool", "Int", "Int32", "Int64", "UInt", "Double", "Float", "CGFloat", "Date", "TimeInterval", "NSNumber",
        "URL", "UUID"
    ]

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        valueTypes.insert(node.name.text)
        return enter(node.name.text)
    }
    override func visitPost(_ node: StructDeclSyntax) { typeNames.removeLast() }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        // `print(object)` of a class without its own description shows the type's name only.
        referenceTypes.insert(node.name.text)
        return enter(node.name.text)
    }
    override func visitPost(_ node: ClassDeclSyntax) { typeNames.removeLast() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        referenceTypes.insert(node.name.text)
        return enter(node.name.text)
    }
    override func visitPost(_ node: ActorDeclSyntax) { typeNames.removeLast() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        valueTypes.insert(node.name.text)
        return enter(node.name.text)
    }
    override func visitPost(_ node: EnumDeclSyntax) { typeNames.removeLast() }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(Self.simpleTypeName(node.extendedType))
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { typeNames.removeLast() }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    private func enter(_ name: String) -> SyntaxVisitorContinueKind {
        typeNames.append(name)
        return .visitChildren
    }

    override func visit(_ node: EnumCaseElementSyntax) -> SyntaxVisitorContinueKind {
        // `case token = "auth_token"`: `Keys.token.rawValue` names a credential.
        if let literal = node.rawValue?.value.as(StringLiteralExprSyntax.self), let text = Self.plainText(literal),
            CredentialNames.isCredential(text), let type = typeNames.last
        {
            keyConstants.insert("\(type).\(node.name.text)")
        }
        return .skipChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        let isStatic = node.modifiers.contains { ["static", "class"].contains($0.name.text) }
        let isManaged = node.attributes.contains {
            $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "NSManaged"
        }
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            if !isStatic, name == "description" || name == "debugDescription", let type = typeNames.last, !type.isEmpty
            {
                selfDescribingTypes.insert(type)
            }
            if let literal = binding.initializer?.value.as(StringLiteralExprSyntax.self),
                let text = Self.plainText(literal), CredentialNames.isCredential(text)
            {
                // A type's constant by `Type.name` only: another type's `defaultsKey` is another key.
                keyConstants.insert(typeNames.last.map { "\($0).\(name)" } ?? name)
            }
            guard !isStatic, let type = typeNames.last, Self.isStored(binding) else { continue }
            let declaredType = binding.typeAnnotation.map { Self.simpleTypeName($0.type) }
            if let declaredType, !declaredType.isEmpty, !type.isEmpty {
                propertyTypes[type, default: []].insert(declaredType)
            }
            if let declaredType, Self.flagOrNumberTypes.contains(declaredType) { continue }
            if let initial = binding.initializer?.value, InsecureStorageVisitor.isFlagOrCount(initial) { continue }
            if CredentialNames.isCredential(name) {
                if credentialTypes[type] == nil { credentialTypes[type] = "`\(name)`" }
                if isManaged { managedProperties.insert(name) }
            }
        }
        return .skipChildren
    }

    /// Whether any token of `tree` sets up an encrypted database: `encryptionKey` (Realm, Couchbase
    /// Lite), `sqlite3_key`, SQLCipher, a `PRAGMA key` statement — except `PRAGMA key` in a file that
    /// imports Apple's `SQLite3`, which has no codec and ignores it.
    static func configuresEncryption(_ tree: SourceFileSyntax) -> Bool {
        let usesSystemSQLite = tree.statements.contains {
            $0.item.as(ImportDeclSyntax.self)?.path.trimmedDescription == "SQLite3"
        }
        for token in tree.tokens(viewMode: .sourceAccurate) {
            switch token.tokenKind {
            case .identifier(let name):
                if ["sqlite3_key", "sqlite3_key_v2", "SQLCipher", "cipherKeyBlock"].contains(name) { return true }
                // `Realm.Configuration(encryptionKey: key)`, `configuration.encryptionKey = key`; not a
                // variable of the app's own crypto named `encryptionKey` (`self.encryptionKey`).
                if name == "encryptionKey", isDatabaseKeySetting(token) { return true }
            case .stringSegment(let text):
                // `db.execute("PRAGMA key = …")`: a statement given to a call, not help text.
                if !usesSystemSQLite, text.range(of: "PRAGMA key", options: .caseInsensitive) != nil,
                    token.nearestAncestor(LabeledExprSyntax.self)?.parent?.parent?.is(FunctionCallExprSyntax.self)
                        == true
                {
                    return true
                }
            default:
                continue
            }
        }
        return false
    }

    /// `encryptionKey:` labelling a non-nil argument of a configuration's initializer
    /// (`Realm.Configuration(encryptionKey: key)`, `DatabaseConfiguration(encryptionKey: …)`), or
    /// `….encryptionKey =` on a name containing `config`.
    private static func isDatabaseKeySetting(_ token: TokenSyntax) -> Bool {
        if let argument = token.parent?.as(LabeledExprSyntax.self) {
            guard !argument.expression.is(NilLiteralExprSyntax.self),
                let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
            else { return false }
            return call.calledExpression.trimmedDescription.range(of: "Configuration", options: .caseInsensitive) != nil
        }
        guard token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .period,
            let base = token.previousToken(viewMode: .sourceAccurate)?.previousToken(viewMode: .sourceAccurate),
            base.text.range(of: "config", options: .caseInsensitive) != nil
        else { return false }
        return token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .equal
    }

    /// A stored property: no accessors, or only observers.
    private static func isStored(_ binding: PatternBindingSyntax) -> Bool {
        guard let accessors = binding.accessorBlock?.accessors else { return true }
        guard case .accessors(let list) = accessors else { return false }
        return list.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
    }

    /// `LoginInfo` for `LoginInfo?`, `[LoginInfo]`, `LoginInfo!`, `Module.LoginInfo`.
    static func simpleTypeName(_ type: TypeSyntax) -> String {
        if let optional = type.as(OptionalTypeSyntax.self) { return simpleTypeName(optional.wrappedType) }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return simpleTypeName(unwrapped.wrappedType)
        }
        if let array = type.as(ArrayTypeSyntax.self) { return simpleTypeName(array.element) }
        if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        // Tuples, dictionaries, function types: no type name of the module (and never the text of
        // whatever the parser accepted there, literals included).
        return ""
    }

    /// The text of a literal without interpolations, or nil.
    static func plainText(_ literal: StringLiteralExprSyntax) -> String? {
        var text = ""
        for segment in literal.segments {
            guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
            text += plain.content.text
        }
        return text
    }
}
