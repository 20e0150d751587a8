import Foundation
@testable import SecureStorageLint

/// Files built to make swift-syntax's parser take exponential or unbounded time, and the reason
/// each must be refused for.
enum LintAttacks {
    /// One attack file.
    struct Attack {
        /// Its file name.
        var name: String
        /// Its Swift source.
        var source: String
        /// Why the linter must refuse it.
        var reason: NotLintedReason
    }

    static func nested(_ open: String, _ inner: String, _ close: String, _ count: Int) -> String {
        String(repeating: open, count: count) + inner + String(repeating: close, count: count)
    }

    /// Every nesting attack, refused before or while parsing (no time limit needed).
    static let all: [Attack] = [
        // The review's attack: the old pre-scan skipped the whole string, interpolation included.
        Attack(
            name: "Interpolation.swift", source: "let s = \"\\(" + nested("[", "1", "]", 22) + ")\"\n",
            reason: .bracketsTooDeep(depth: 22)),
        // `\"` read as an escape in a raw string: the old pre-scan took the code after it as string.
        Attack(
            name: "RawString.swift",
            source: "let r = #\"\\\"#; let x = " + nested("[", "1", "]", 22) + "; let q = \"end\"\n",
            reason: .bracketsTooDeep(depth: 22)),
        Attack(
            name: "RawStringTwoPounds.swift",
            source: "let r = ##\"\\\"#\"##; let x = " + nested("[", "1", "]", 24) + "\n",
            reason: .bracketsTooDeep(depth: 24)),
        Attack(
            name: "MultiLineRawString.swift",
            source: "let r = #\"\"\"\n\\\"\"\"\n\"\"\"#\nlet x = " + nested("[", "1", "]", 22) + "\n",
            reason: .bracketsTooDeep(depth: 22)),
        // A quote inside a bare regex literal opens no string; a scanner taking it for one would not count what follows.
        Attack(
            name: "RegexWithQuote.swift",
            source: "let r = /\"/; let x = " + nested("[", "1", "]", 22) + "; let s = \"x\"\n",
            reason: .bracketsTooDeep(depth: 22)),
        Attack(
            name: "ArrayType.swift", source: "let x: " + nested("[", "Int", "]", 22) + " = []\n",
            reason: .bracketsTooDeep(depth: 22)),
        Attack(
            name: "NestedInterpolations.swift", source: "let x = " + nested("\"\\(", "[[1]]", ")\"", 500) + "\n",
            reason: .nestingTooDeep),
        Attack(
            name: "Parentheses.swift", source: "let x = " + nested("(", "1", ")", 2_000) + "\n", reason: .nestingTooDeep
        ),
        Attack(name: "Calls.swift", source: "let x = " + nested("f(", "1", ")", 2_000) + "\n", reason: .nestingTooDeep),
        Attack(
            name: "Closures.swift", source: "let f = " + nested("{ ", "1", " }", 2_000) + "\n", reason: .nestingTooDeep),
        Attack(
            name: "Blocks.swift", source: "func f() {\n" + nested("if a { ", "g()", " }", 150) + "\n}\n",
            reason: .nestingTooDeep)
    ]

    /// Generic arguments nested 200 deep: swift-syntax does not apply its nesting limit to them,
    /// and they parse in a fraction of a second, so they are linted.
    static let deepGenerics = [
        "let x: " + nested("A<", "Int", ">", 200) + " = y\n", "let x = " + nested("A<", "Int", ">", 200) + "()\n"
    ]

    /// Files that no limit on nesting stops, which parse in quadratic time or worse: the time
    /// limit alone abandons them (each takes several seconds unoptimised, some minutes).
    static let slow: [(name: String, source: String)] = [
        // No nesting at all: every `<` makes the parser look ahead for generic arguments to the end.
        ("LessThan.swift", "let x = " + String(repeating: "a < ", count: 3_000) + "1\n"),
        // Generic arguments 2,000 deep (about 14 s).
        ("Generics.swift", "let x = " + nested("A<", "Int", ">", 2_000) + "()\n"),
        // Statement blocks 1,000 deep: refused at the nesting limit, but only after 4 s of look-ahead.
        ("DeepBlocks.swift", "func f() {\n" + nested("if a { ", "g()", " }", 1_000) + "\n}\n")
    ]

    /// A file with one delete-then-add finding (a warning), linted beside the attacks.
    static let ordinary =
        "func f(q: CFDictionary) -> OSStatus {\n    SecItemDelete(q)\n    return SecItemAdd(q, nil)\n}\n"

    /// A new temporary directory holding every attack of ``all``.
    static func writtenToTemporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lint-attacks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for attack in all { try Data(attack.source.utf8).write(to: directory.appendingPathComponent(attack.name)) }
        return directory
    }
}
