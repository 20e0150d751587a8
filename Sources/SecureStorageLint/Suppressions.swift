import SwiftSyntax

/// The `keychain-lint:` comments of one file and what they turn off.
///
/// ```swift
/// // keychain-lint:disable-next-line delete-then-add -- reproduces the bug on purpose
/// SecItemDelete(query as CFDictionary)
/// SecItemDelete(query as CFDictionary) // keychain-lint:disable-line unchecked-status
/// // keychain-lint:disable hardcoded-secret    (a region, until the matching enable)
/// // keychain-lint:enable hardcoded-secret
/// // keychain-lint:disable-file logged-secret  (the whole file)
/// ```
///
/// Several ids are separated by commas or spaces; `all` names every rule. Text after ` -- ` or
/// ` — ` is the reason, for the reader. A comment naming an unknown rule is itself reported
/// (`unknown-suppression`), so a misspelling cannot silently suppress nothing.
struct Suppressions {
    private var lines: [Int: Set<String>] = [:]
    private var regions: [(rule: String, lines: ClosedRange<Int>)] = []
    private var wholeFile: Set<String> = []

    /// No suppressions.
    init() {}

    /// Reads the comments of a tree, reporting unknown rule ids to `context`.
    init(tree: SourceFileSyntax, context: FileLintContext) {
        var openRegions: [String: Int] = [:]
        for token in tree.tokens(viewMode: .sourceAccurate) {
            var offset = token.position.utf8Offset
            for piece in token.leadingTrivia {
                read(piece, at: offset, context: context, openRegions: &openRegions)
                offset += piece.sourceLength.utf8Length
            }
            offset = token.endPositionBeforeTrailingTrivia.utf8Offset
            for piece in token.trailingTrivia {
                read(piece, at: offset, context: context, openRegions: &openRegions)
                offset += piece.sourceLength.utf8Length
            }
        }
        for (rule, start) in openRegions { regions.append((rule, start...Int.max)) }
    }

    /// Whether a finding is turned off by a comment.
    func suppresses(_ finding: Finding) -> Bool {
        guard finding.rule != .unknownSuppression else { return false }
        let rule = finding.rule.rawValue
        if wholeFile.contains(rule) || wholeFile.contains("all") { return true }
        if let ids = lines[finding.position.line], ids.contains(rule) || ids.contains("all") { return true }
        return regions.contains { ($0.rule == rule || $0.rule == "all") && $0.lines.contains(finding.position.line) }
    }

    private mutating func read(_ piece: TriviaPiece, at offset: Int, context: FileLintContext, openRegions: inout [String: Int]) {
        // Only comments that start with the directive (`// keychain-lint:…`, `/* keychain-lint:… */`);
        // documentation comments and prose that mention it are not directives.
        let body: Substring
        switch piece {
        case .lineComment(let comment): body = comment.dropFirst(2)
        case .blockComment(let comment): body = comment.dropFirst(2)
        default: return
        }
        let trimmed = body.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("keychain-lint:") else { return }
        var rest = trimmed.dropFirst("keychain-lint:".count)
        for terminator in [" -- ", " — ", "*/"] {
            if let range = rest.range(of: terminator) { rest = rest[..<range.lowerBound] }
        }
        let words = rest.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
        guard let directive = words.first else { return }
        let line = context.text.line(ofOffset: offset)
        var ids: [String] = []
        for id in words.dropFirst() {
            if id == "all" || RuleID(rawValue: id) != nil {
                ids.append(id)
            } else {
                context.report(.unknownSuppression, atOffset: offset, "`\(id)` is not a keychain-lint rule, so this comment suppresses nothing for it; see keychain-lint --list-rules.")
            }
        }
        switch directive {
        case "disable-next-line": lines[line + 1, default: []].formUnion(ids)
        case "disable-line": lines[line, default: []].formUnion(ids)
        case "disable-file": wholeFile.formUnion(ids)
        case "disable": for id in ids where openRegions[id] == nil { openRegions[id] = line }
        case "enable":
            for id in ids {
                if let start = openRegions.removeValue(forKey: id) { regions.append((id, start...line)) }
            }
        default:
            context.report(.unknownSuppression, atOffset: offset, "`keychain-lint:\(directive)` is not a directive; use disable-next-line, disable-line, disable, enable or disable-file.")
        }
    }
}

private extension StringProtocol {
    /// The first range of `needle` (a small search without Foundation).
    func range(of needle: String) -> Range<Index>? {
        guard !needle.isEmpty else { return nil }
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(needle) {
                return index..<(self.index(index, offsetBy: needle.count))
            }
            index = self.index(after: index)
        }
        return nil
    }
}
