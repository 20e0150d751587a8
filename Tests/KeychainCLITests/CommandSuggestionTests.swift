import XCTest

/// Mistyped command names get the command that was probably meant; help sent to a pipe keeps
/// its example commands whole.
final class CommandSuggestionTests: CLITestCase {
    func testAMistypedCommandGetsTheCommandMeant() throws {
        let result = try keychain("find-generic-pasword", "-s", "api.example.com", "-a", "alice", "-w")
        XCTAssertStatus(result, 64)
        XCTAssertTrue(result.stderr.contains("Did you mean `keychain find-generic-password`?"), result.stderr)
        XCTAssertFalse(
            result.stderr.contains("Usage:"), "the suggestion is not buried under the usage text: \(result.stderr)")
    }

    func testAShortMistypedCommandAndASubcommand() throws {
        let lint = try keychain("lnt", "Sources")
        XCTAssertStatus(lint, 64)
        XCTAssertTrue(lint.stderr.contains("Did you mean `keychain lint`?"), lint.stderr)
        let join = try keychain("sync", "jion", "--circle", "ABCD")
        XCTAssertStatus(join, 64)
        XCTAssertTrue(
            join.stderr.contains("is not a command of `keychain sync`. Did you mean `keychain sync join`?"), join.stderr
        )
    }

    func testAnUnknownWordGetsTheListNotAGuess() throws {
        let result = try keychain("frobnicate")
        XCTAssertStatus(result, 64)
        XCTAssertTrue(
            result.stderr.contains("'frobnicate' is not a command of `keychain`; `keychain --help` lists them all."),
            result.stderr)
    }

    func testAMistypedCommandIsPrintedSafely() throws {
        let result = try keychain("fin\u{1B}]0;owned\u{07}d")
        XCTAssertStatus(result, 64)
        XCTAssertEqual(unsafeCharacters(in: result.stderr), [], result.stderr)
    }

    /// The aliases of macOS `security` run (`lock-keychain` in a logout script must lock), and a
    /// mistyped alias gets the alias meant (attack review of issue 35, F1).
    func testEveryAliasRunsAndAMistypedAliasGetsItsSuggestion() throws {
        XCTAssertStatus(try keychain("create-keychain", "--passphrase-file", try passphraseFile("alias pass").path), 0)
        XCTAssertStatus(try keychain("show-keychain-info"), 0)
        XCTAssertStatus(try keychain("lock-keychain"), 0)
        let mistyped = try keychain("lock-keychian")
        XCTAssertStatus(mistyped, 64)
        XCTAssertTrue(mistyped.stderr.contains("Did you mean `keychain lock-keychain`?"), mistyped.stderr)
    }

    func testCommandsAndOptionsStillParse() throws {
        XCTAssertStatus(try keychain("--version"), 0)
        XCTAssertStatus(try keychain("help", "sync"), 0)
        XCTAssertStatus(try keychain("sync", "--help"), 0)
        let missing = try keychain("find-generic-password", "-s", "nothing-here")
        XCTAssertStatus(missing, 44)
    }

    func testHelpInAPipeKeepsExampleCommandsWhole() throws {
        let help = try keychain("--help")
        XCTAssertStatus(help, 0)
        let example = "  keychain export ~/keychain.backup && keychain import ~/keychain.backup --keychain ~/other"
        XCTAssertTrue(
            help.stdout.split(separator: "\n").contains { $0 == example },
            "an example longer than 80 columns stays one line:\n\(help.stdout)")
        let sync = try keychain("sync", "--help")
        XCTAssertTrue(
            sync.stdout.contains(
                "  keychain sync join --server \"host=db.example.com dbname=keychain user=alice\" --circle CODE\n"),
            sync.stdout)
    }
}
