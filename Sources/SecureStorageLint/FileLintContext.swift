import SwiftSyntax

/// One file being linted: its path and text, and the findings the rules report on it.
///
/// Rules run one after another on the same context; ``SourceFileLinter`` then drops the
/// suppressed findings.
package final class FileLintContext {
    /// The path the finding lists.
    package let path: String
    /// The file's bytes and lines.
    package let text: SourceText
    /// Whether the file is test code (``TestCodePaths``).
    package let isTestFile: Bool
    /// The rules that run.
    package let enabledRules: Set<RuleID>
    /// What the rules know about the file's module (every file linted with it).
    package let module: ModuleFacts
    /// What the rules found, in the order they found it.
    package private(set) var findings: [Finding] = []

    /// A context for one file.
    /// `isTestFile` overrides what the path says (the process that found the file knows the
    /// directory it was found under, ``TestCodePaths/isTestCode(_:roots:)``).
    package init(
        path: String, text: SourceText, enabledRules: Set<RuleID>, module: ModuleFacts = ModuleFacts(),
        isTestFile: Bool? = nil
    ) {
        self.path = path
        self.text = text
        self.enabledRules = enabledRules
        self.module = module
        self.isTestFile = isTestFile ?? TestCodePaths.isTestCode(SourceFileFinder.relativeToWorkingDirectory(path))
    }

    /// The file's name without directories.
    package var fileName: Substring {
        path.split(separator: "/").last ?? Substring(path)
    }

    /// Records a finding at the start of `node` (its first token, leading trivia excluded).
    package func report(
        _ rule: RuleID, at node: some SyntaxProtocol, _ message: String,
        related: (node: any SyntaxProtocol, message: String)? = nil
    ) {
        guard enabledRules.contains(rule) else { return }
        let relatedPosition = related.map {
            RelatedPosition(
                position: text.position(ofOffset: $0.node.positionAfterSkippingLeadingTrivia.utf8Offset),
                message: $0.message)
        }
        findings.append(
            Finding(
                rule: rule, severity: RuleCatalog.descriptor(of: rule).severity, file: path,
                position: text.position(ofOffset: node.positionAfterSkippingLeadingTrivia.utf8Offset),
                message: message, related: relatedPosition
            ))
    }

    /// Records a finding at a byte offset (suppression comments, which are trivia, not nodes).
    package func report(_ rule: RuleID, atOffset offset: Int, _ message: String) {
        guard enabledRules.contains(rule) else { return }
        findings.append(
            Finding(
                rule: rule, severity: RuleCatalog.descriptor(of: rule).severity, file: path,
                position: text.position(ofOffset: offset), message: message))
    }

    /// Replaces the findings (after suppression).
    package func replaceFindings(_ kept: [Finding]) { findings = kept }
}
