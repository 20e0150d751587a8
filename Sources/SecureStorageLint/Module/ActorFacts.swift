import SwiftSyntax

/// Module-wide facts about types isolated to the main actor, by attribute, conformance or
/// inheritance, so that a SecItem call in `extension LoginViewController` or in a subclass of a
/// base view controller declared in another file is known to run on the main actor.
///
/// A type is main-actor isolated when it is declared `@MainActor`, or inherits or conforms to a
/// main-actor type: one of the module (transitively), or a UIKit, AppKit or SwiftUI type known
/// by name or by the shape of its name (``isMainActorSupertype(_:)``: any `…ViewController`, such
/// as `ASCredentialProviderViewController`, any `UI…View` or `NS…View`). Actors never are.
package struct ActorFacts: Sendable, Hashable, Codable {
    /// Types of the module that are main-actor isolated (after ``resolve()``).
    package private(set) var mainActorTypes: Set<String> = []
    /// What each type of the module inherits or conforms to, over its declaration and extensions.
    package private(set) var supertypes: [String: Set<String>] = [:]
    /// Types declared `actor` (isolated to themselves, whatever they conform to).
    package private(set) var actors: Set<String> = []

    /// No facts.
    package init() {}

    /// Adds the types one file declares or extends.
    package mutating func collect(from tree: SourceFileSyntax, path: String) {
        let collector = TypeDeclarationCollector(viewMode: .sourceAccurate)
        collector.walk(tree)
        mainActorTypes.formUnion(collector.attributed)
        actors.formUnion(collector.actors)
        for (type, names) in collector.supertypes { supertypes[type, default: []].formUnion(names) }
    }

    /// Adds another file's facts.
    package mutating func merge(_ other: ActorFacts) {
        mainActorTypes.formUnion(other.mainActorTypes)
        actors.formUnion(other.actors)
        for (type, names) in other.supertypes { supertypes[type, default: []].formUnion(names) }
    }

    /// Marks every type that inherits or conforms to a main-actor type, directly or through
    /// other types of the module: a breadth-first walk from the main-actor types down to what
    /// inherits from them, linear in the number of inheritance edges (a hostile chain of types
    /// declared in reverse order costs no more than any other).
    package mutating func resolve() {
        var subtypes: [String: [String]] = [:]
        var queue: [String] = Array(mainActorTypes)
        for (type, names) in supertypes {
            for name in names {
                subtypes[name, default: []].append(type)
                if Self.isMainActorSupertype(name) && !mainActorTypes.contains(name) { queue.append(name) }
            }
        }
        var reached = Set(queue)
        var next = 0
        while next < queue.count {
            let type = queue[next]
            next += 1
            for subtype in subtypes[type] ?? [] where !actors.contains(subtype) && reached.insert(subtype).inserted {
                queue.append(subtype)
            }
        }
        // The platform's own types reached the walk as starting points; only the module's are kept.
        mainActorTypes = reached.filter { supertypes[$0] != nil }.union(mainActorTypes).subtracting(actors)
    }

    /// Whether the module's type `name` (its last component: `Login.ViewController` →
    /// `ViewController`) is main-actor isolated.
    package func isMainActor(_ name: String) -> Bool {
        mainActorTypes.contains(Self.lastComponent(of: name))
    }

    /// Whether a type the module does not declare makes what inherits or conforms to it main-actor
    /// isolated: SwiftUI's `View`, `App` and `Scene`, UIKit's and AppKit's responders, views,
    /// view and window controllers and application delegates.
    package static func isMainActorSupertype(_ name: String) -> Bool {
        let name = lastComponent(of: name)
        if knownSupertypes.contains(name) { return true }
        if name.hasSuffix("ViewController") || name.hasSuffix("WindowController") { return true }
        let isPlatformType = ["UI", "NS", "WK", "MK", "SK", "AV", "PK", "AS"].contains { name.hasPrefix($0) }
        return isPlatformType
            && ["View", "Cell", "Window", "Button", "Label", "Control", "Responder", "Bar", "Field"].contains {
                name.hasSuffix($0)
            }
    }

    private static let knownSupertypes: Set<String> = [
        "View", "App", "Scene", "UIViewController", "NSViewController", "UIView", "NSView", "UIApplicationDelegate",
        "NSApplicationDelegate", "UIWindowSceneDelegate", "UISceneDelegate", "UIResponder", "NSResponder",
        "UIHostingController", "NSHostingController", "UIViewRepresentable", "UIViewControllerRepresentable",
        "NSViewRepresentable", "NSViewControllerRepresentable", "UINavigationController", "UITabBarController",
        "UISplitViewController", "UIPageViewController", "UISearchController", "UIAlertController",
        "UIDocumentPickerDelegate", "UITableViewDataSource", "UITableViewDelegate", "UICollectionViewDataSource",
        "UICollectionViewDelegate", "UITextFieldDelegate", "UITextViewDelegate"
    ]

    static func lastComponent(of name: String) -> String {
        // `Module.Type`, `Base<Item>`: the type's own name.
        let base = name.split(separator: "<").first.map(String.init) ?? name
        return base.split(separator: ".").last.map(String.init) ?? base
    }
}

/// Collects the types a file declares or extends, their supertypes, and which are `@MainActor`
/// or actors; function bodies are skipped (types declared in them are local).
private final class TypeDeclarationCollector: SyntaxVisitor {
    var attributed: Set<String> = []
    var actors: Set<String> = []
    var supertypes: [String: Set<String>] = [:]

    private func record(_ name: String, _ attributes: AttributeListSyntax, _ inheritance: InheritanceClauseSyntax?) {
        let name = ActorFacts.lastComponent(of: name)
        if attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" })
        {
            attributed.insert(name)
        }
        // A name only: a type the parser read around a literal (`class A: ("…")`) must not carry its text.
        let inherited = inheritance?.inheritedTypes.map { ActorFacts.lastComponent(of: $0.type.trimmedDescription) }
            .filter { $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "`" } }
        if let inherited, !inherited.isEmpty { supertypes[name, default: []].formUnion(inherited) }
        if supertypes[name] == nil { supertypes[name] = [] }
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name.text, node.attributes, node.inheritanceClause)
        return .visitChildren
    }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name.text, node.attributes, node.inheritanceClause)
        return .visitChildren
    }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name.text, node.attributes, node.inheritanceClause)
        return .visitChildren
    }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name.text, node.attributes, node.inheritanceClause)
        return .skipChildren
    }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        actors.insert(node.name.text)
        return .visitChildren
    }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        // Swift infers a type's isolation from its primary declaration only: a conformance or
        // `@MainActor` on an extension isolates that extension's members (MainActorVisitor reads
        // those where they are written), not the type.
        // Only a named type (`Login.Screen`); never the text of whatever else the parser accepted.
        let named =
            node.extendedType.as(IdentifierTypeSyntax.self)?.name.text
            ?? node.extendedType.as(MemberTypeSyntax.self)?.name.text
        if let name = named, supertypes[name] == nil { supertypes[name] = [] }
        return .visitChildren
    }
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
