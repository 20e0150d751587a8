import SwiftSyntax

/// What a file write writes and where: whether a receiver of `write(to:)` is file content
/// (`Data`, a `String`, an `NSDictionary`, encoded data) rather than a project's own type with a
/// method of that name, and whether a destination is under Documents or Library (backed up).
enum FileContent {
    /// Types whose `write(to:)`/`write(toFile:)` writes a file.
    private static let contentTypes: Set<String> = [
        "Data", "NSData", "String", "NSString", "NSDictionary", "NSMutableDictionary", "NSArray", "NSMutableArray",
        "Dictionary", "Array"
    ]
    /// Calls that return file content.
    private static let contentFunctions: Set<String> = [
        "encode", "data", "archivedData", "jsonData", "base64EncodedData", "pngData", "jpegData"
    ]
    /// Last words of names of file content.
    private static let contentWords: Set<String> = [
        "data", "string", "dict", "dictionary", "plist", "json", "contents", "content", "text", "bytes", "archive",
        "body", "payload", "blob"
    ]

    /// Whether `value` is file content, by its form, its name or its local declaration.
    static func isFileContent(_ value: ExprSyntax, evidence: CredentialEvidence, depth: Int = 0) -> Bool {
        let stripped = CredentialEvidence.unwrapped(value)
        if stripped.is(StringLiteralExprSyntax.self) || stripped.is(DictionaryExprSyntax.self)
            || stripped.is(ArrayExprSyntax.self)
        {
            return true
        }
        if let call = stripped.as(FunctionCallExprSyntax.self), let callee = call.calleeName {
            return call.calleeBase == nil ? contentTypes.contains(callee) : contentFunctions.contains(callee)
        }
        guard
            let name = stripped.as(DeclReferenceExprSyntax.self)?.baseName.text ?? stripped.referencedName
                ?? stripped.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        else { return false }
        if let last = CredentialNames.words(of: name).last, contentWords.contains(last) { return true }
        guard depth < 3,
            let declaration = evidence.declaration(of: name, at: Syntax(stripped), budget: LookBackBudget())
        else { return false }
        if let type = declaration.type { return contentTypes.contains(type) }
        if let initial = declaration.initializer { return isFileContent(initial, evidence: evidence, depth: depth + 1) }
        return false
    }

    /// Whether `destination` (or the local value it names) is under Documents or Library.
    static func isBackedUpLocation(_ destination: ExprSyntax, evidence: CredentialEvidence, depth: Int = 0) -> Bool {
        let markers = [
            "documentDirectory", "documentsDirectory", "libraryDirectory", "applicationSupportDirectory",
            "NSDocumentDirectory", "NSLibraryDirectory", "Documents", "Library"
        ]
        var lookups = 0
        for token in destination.tokens(viewMode: .sourceAccurate).prefix(200) {
            switch token.tokenKind {
            case .identifier(let name):
                if markers.contains(name) { return true }
                lookups += 1
                if depth < 2, lookups <= 4,
                    let initial = evidence.declaration(
                        of: name, at: Syntax(destination), budget: LookBackBudget())?.initializer,
                    isBackedUpLocation(initial, evidence: evidence, depth: depth + 1)
                {
                    return true
                }
            case .stringSegment(let text):
                if text.contains("Documents") || text.contains("Library") { return true }
            default:
                continue
            }
        }
        return false
    }
}
