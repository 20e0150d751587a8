import Foundation
import XCTest
@testable import SecureStorageLint

/// Code that does not parse, cut-off files and odd bytes give findings or none, never a crash
/// or a hang.
final class RobustnessTests: XCTestCase {
    func testTruncatedFixturesLintWithoutCrashing() throws {
        let fixture = FixtureTests.fixtures.appendingPathComponent("delete-then-add/positive.swift")
        let bytes = Array(try Data(contentsOf: fixture))
        let linter = SourceFileLinter()
        for end in stride(from: 0, to: bytes.count, by: 37) {
            _ = linter.lint(path: "cut.swift", bytes: Array(bytes[..<end]))
        }
    }

    func testMalformedInput() {
        let linter = SourceFileLinter()
        let inputs: [[UInt8]] = [
            [], [0xFF, 0xFE, 0x00, 0x41], Array("SecItemDelete(".utf8), Array("\"\"\"\nunterminated".utf8),
            Array("func f() { SecItemDelete(q) // keychain-lint:disable-line".utf8),
            Array(repeating: UInt8(ascii: "("), count: 10_000),
            Array("let k = \"AKIAIOSFODNN7EXAMPL\u{0}E\"".utf8)
        ]
        for input in inputs { _ = linter.lint(path: "odd.swift", bytes: input) }
    }

    func testMessagesNeverQuoteTheSecret() {
        // Assembled, so that this file does not hold a token-shaped literal itself.
        let token = "ghp_" + "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"
        let source =
            #"let githubToken = ""# + token + #""; let clientSecret = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b""#
        let findings = SourceFileLinter().lint(path: "a.swift", bytes: Array(source.utf8))
        XCTAssertEqual(findings.count, 2)
        for finding in findings {
            XCTAssertFalse(finding.message.contains("wWPw5k4a"))
            XCTAssertFalse(finding.message.contains("9f86d081"))
        }
    }

    func testDeeplyNestedBracketsAreRefusedBeforeParsing() {
        let deep = Array(
            ("let x = " + String(repeating: "[", count: 40) + "1" + String(repeating: "]", count: 40) + "\n").utf8)
        XCTAssertEqual(InputLimits.refusal(of: deep), .bracketsTooDeep(depth: 40))
        XCTAssertEqual(
            InputLimits.refusal(of: deep)?.message,
            "nests brackets 40 deep (more than 16), where the Swift parser takes exponential time")
        // Brackets in strings and comments do not count; ordinary nesting passes.
        let ordinary = Array(
            ("let s = \"[[[[[[[[[[[[[[[[[[[[\" // [[[[[[[[[[[[[[[[[[[[\n/* [[[[[[[[[[[[[[[[[[[[ */\nlet m: [[String: [Int]]] = [[\"a\": [1]]]\n")
                .utf8)
        XCTAssertNil(InputLimits.refusal(of: ordinary))
        XCTAssertEqual(BracketDepthScanner.deepestBracketNesting(in: ordinary), 3)
    }

    /// The scanner reads strings as the Swift lexer does: code inside interpolations counts, a raw
    /// string ends only at its own delimiter, and string contents, comments and regexes do not count.
    func testBracketScannerReadsInterpolationsAndRawStringsAsSwiftDoes() {
        func depth(_ source: String) -> Int { BracketDepthScanner.deepestBracketNesting(in: Array(source.utf8)) }
        XCTAssertEqual(depth("let s = \"\\([[[1]]])\""), 3, "interpolation")
        XCTAssertEqual(depth("let s = \"\\( \"\\( [[[1]]] )\" )\""), 3, "interpolation in an interpolation")
        XCTAssertEqual(depth("let s = \"\\(f(g([[1]])))[[[[\""), 2, "parentheses inside an interpolation")
        XCTAssertEqual(
            depth("let r = #\"\\\"#; let x = [[1]]; let q = \"end\""), 2,
            "a backslash does not escape a quote in a raw string")
        XCTAssertEqual(depth("let r = #\"\\#([[1]]) [[[[\"#"), 2, "raw interpolation")
        XCTAssertEqual(
            depth("let r = ##\"a\"# \\#( [[[[ \"##; let x = [1]"), 1, "a ##-string ends only at its own delimiter")
        XCTAssertEqual(depth("let r = #\"\"\"\n\\\"\"\"\n[[[[\n\"\"\"#\nlet x = [[1]]\n"), 2, "multi-line raw string")
        XCTAssertEqual(
            depth("let s = \"\"\"\n  \\\"\"\" [[[[ \\(x[[0]])\n  \"\"\"\n"), 2,
            "multi-line string with an escaped delimiter")
        XCTAssertEqual(depth("let s = \"a\\\"[[[[\" + [1]"), 1, "escaped quote in a string")
        XCTAssertEqual(
            depth("let r = #/[[[[/#; /* /* [[ */ [[ */ let `[[[` = [1]\n"), 1, "regex, nested comment, backquotes")
        XCTAssertEqual(depth("let s = \"[[[[\nlet x = [[1]]\n"), 2, "an unterminated string ends with its line")
        XCTAssertEqual(
            depth("let r = /\"/; let x = [[1]]; let s = \"x\"\n"), 2, "a quote in a bare regex opens no string")
        XCTAssertEqual(depth("let q = a / b; let s = \"/ [[[[ \" + c / d\n"), 0, "division is not a regex")
        XCTAssertEqual(depth("let r = /[[a-z]]/; let s = \"[[[[\"\n"), 2, "brackets in a bare regex still count")
    }

    /// The attacks of the security review (issue 34 §3) and deep nesting of every other kind:
    /// each is refused, with its reason, in well under a second each; before, 22 levels of `[`
    /// inside an interpolation took 88 s, each level more twice as long.
    func testDeepNestingAttacksAreRefusedQuicklyWithTheirReason() throws {
        let directory = try LintAttacks.writtenToTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = LintAttacks.all.map { directory.appendingPathComponent($0.name).path }
        let clock = ContinuousClock()
        let started = clock.now
        let run = LintRun.lint(files, with: SourceFileLinter(), jobs: 2)
        let elapsed = clock.now - started
        XCTAssertLessThan(elapsed, .seconds(10), "the attacks took \(elapsed)")
        XCTAssertEqual(run.notLinted.map(\.path), files, "every attack is refused")
        for (attack, refused) in zip(LintAttacks.all, run.notLinted) {
            XCTAssertEqual(refused.reason, attack.reason, attack.name)
        }
        XCTAssertEqual(run.findings, [])
        let generics = LintAttacks.deepGenerics.map {
            SourceFileLinter().lint(path: "g.swift", bytes: Array($0.utf8))
        }
        XCTAssertEqual(generics, [[], []])
        XCTAssertLessThan(
            clock.now - started, .seconds(10), "the attacks and deep generics took \(clock.now - started)")
    }

    func testALongMemberChainIsLintedOnTheWorkersLargeStack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lint-deep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let chain = directory.appendingPathComponent("Chain.swift")
        try Data(
            ("let x = a" + String(repeating: ".b", count: 30_000)
                + "\nlet clientSecret = \"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b\"\n").utf8
        ).write(to: chain)
        let nested = directory.appendingPathComponent("Nested.swift")
        try Data(("let y = " + String(repeating: "[", count: 2_000) + String(repeating: "]", count: 2_000) + "\n").utf8)
            .write(to: nested)
        let run = LintRun.lint([chain.path, nested.path], with: SourceFileLinter(), jobs: 2)
        XCTAssertEqual(run.findings.map(\.rule), [.hardcodedSecret])
        XCTAssertEqual(run.findings.first?.position.line, 2)
        XCTAssertEqual(run.notLinted, [NotLintedFile(path: nested.path, reason: .bracketsTooDeep(depth: 2_000))])
    }

    func testLoneCarriageReturnsEndLines() {
        let source = "let a = 1\rlet clientSecret = \"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b\"\r\nlet b = 2\r"
        let findings = SourceFileLinter().lint(path: "cr.swift", bytes: Array(source.utf8))
        XCTAssertEqual(findings.map(\.position.line), [2])
    }

    func testSuppressionReasonsAreNeverQuoted() {
        let token = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
        let sources = [
            "// keychain-lint:disable-next-line hardcoded-secret - test key \(token)\nlet x = 1\n",
            "/* keychain-lint:disable hardcoded-secret\n old key: \(token) */\nlet x = 1\n",
            "// keychain-lint:\(token)\nlet x = 1\n"
        ]
        for source in sources {
            for finding in SourceFileLinter().lint(path: "a.swift", bytes: Array(source.utf8)) {
                XCTAssertFalse(finding.message.contains("abcdefghij"), finding.message)
            }
        }
        let bare = SourceFileLinter().lint(
            path: "a.swift", bytes: Array("// keychain-lint:disable-next-line\nlet x = 1\n".utf8))
        XCTAssertEqual(bare.map(\.rule), [.unknownSuppression])
    }

    func testLongLiteralsAndSequencesStayLinear() {
        // Quadratic before: every start re-scanned the literal; every operand re-read the sequence.
        let literal = "let k = \"" + String(repeating: "-AIza", count: 40_000) + "\"\n"
        _ = SourceFileLinter().lint(path: "a.swift", bytes: Array(literal.utf8))
        let sum =
            "func f(q: CFDictionary) { let status = SecItemAdd(q, nil); let x = status"
            + String(repeating: " + status", count: 3_000) + "; print(x) }\n"
        XCTAssertEqual(SourceFileLinter().lint(path: "b.swift", bytes: Array(sum.utf8)).map(\.rule), [])
    }
}
