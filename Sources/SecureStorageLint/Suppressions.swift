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
    /// Disabled line ranges by rule id (or `all`), sorted and merged.
    private var regions: [String: [ClosedRange<Int>]] = [:]
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
        for (rule, start) in openRegions { regions[rule, default: []].append(start...Int.max) }
        for (rule, ranges) in regions {
            var merged: [ClosedRange<Int>] = []
            for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = merged.last, range.lowerBound <= last.upperBound {
                    merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
                } else {
                    merged.append(range)
                }
            }
            regions[rule] = merged
        }
    }

    /// Whether a finding is turned off by a comment.
    func suppresses(_ finding: Finding) -> Bool {
        guard finding.rule != .unknownSuppression else { return false }
        let rule = finding.rule.rawValue
        if wholeFile.contains(rule) || wholeFile.contains("all") { return true }
        if let ids = lines[finding.position.line], ids.contains(rule) || ids.contains("all") { return true }
        return Self.contains(regions[rule], finding.position.line)
            || Self.contains(regions["all"], finding.position.line)
    }

    /// Whether sorted, disjoint `ranges` contain `line` (a binary search).
    private static func contains(_ ranges: [ClosedRange<Int>]?, _ line: Int) -> Bool {
        guard let ranges else { return false }
        var low = 0
        var high = ranges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if ranges[middle].contains(line) { return true }
            if ranges[middle].upperBound < line { low = middle + 1 } else { high = middle - 1 }
        }
        return false
    }

    private mutating func read(
        _ piece: TriviaPiece, at offset: Int, context: FileLintContext, openRegions: inout [String: Int]
    ) {
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
        // The directive and its rules are on the comment's first line.
        if let lineEnd = rest.firstIndex(where: { $0 == "\n" || $0 == "\r" }) { rest = rest[..<lineEnd] }
        for terminator in [" -- ", " — ", "*/"] {
            if let range = rest.range(of: terminator) { rest = rest[..<range.lowerBound] }
        }
        let words = rest.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
        guard let directive = words.first else { return }
        let line = context.text.line(ofOffset: offset)
        var ids: [String] = []
        var reportedUnknown = false
        // Rule ids are lower-case words with hyphens; the first other word starts the reason,
        // and is never quoted (it could be anything, a credential included).
        for id in words.dropFirst() {
            guard id.allSatisfy({ ("a"..."z").contains($0) || $0 == "-" }) else { break }
            if id == "all" || RuleID(rawValue: id) != nil {
                ids.append(id)
            } else {
                reportedUnknown = true
                context.report(
                    .unknownSuppression, atOffset: offset,
                    "`\(id)` is not a keychain-lint rule, so this comment suppresses nothing for it; see keychain-lint --list-rules."
                )
            }
        }
        let isDirective = ["disable-next-line", "disable-line", "disable-file", "disable", "enable"].contains(directive)
        if isDirective && ids.isEmpty && !reportedUnknown {
            context.report(
                .unknownSuppression, atOffset: offset,
                "this keychain-lint:\(directive) comment names no rule; name the rules it is for, or `all`.")
        }
        switch directive {
        case "disable-next-line": lines[line + 1, default: []].formUnion(ids)
        case "disable-line": lines[line, default: []].formUnion(ids)
        case "disable-file": wholeFile.formUnion(ids)
        case "disable": for id in ids where openRegions[id] == nil { openRegions[id] = line }
        case "enable":
            for id in ids {
                if let start = openRegions.removeValue(forKey: id) { regions[id, default: []].append(start...line) }
            }
        default:
            let shown =
                directive.allSatisfy({ ("a"..."z").contains($0) || $0 == "-" })
                ? "`keychain-lint:\(directive)` is" : "this is"
            context.report(
                .unknownSuppression, atOffset: offset,
                "\(shown) not a directive; use disable-next-line, disable-line, disable, enable or disable-file.")
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
