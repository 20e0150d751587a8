import XCTest

/// Every shell block of the documentation, and the test that runs it exactly as written: a new
/// block without an entry here fails ``DocumentedCommandCoverageTests``.
enum DocumentedCommandCoverage {
    /// Where a block is run, found by its file and the start of its first line.
    struct Entry {
        let file: String
        let firstLine: String
        /// `DocumentedCommandTests.testX` or `DocumentedSwiftCommandTests.testX`; or, for a block
        /// no test can run here, why not.
        let runBy: String
    }

    static let entries: [Entry] = [
        Entry(
            file: "README.md", firstLine: "swift run --disable-local-rpath keychain add-generic-password",
            runBy: "DocumentedSwiftCommandTests.testTheReadmesTwoCommands"),
        Entry(
            file: "README.md", firstLine: "keychain add-generic-password -s api.example.com",
            runBy: "DocumentedCommandTests.testTheReadmesToolTour"),
        Entry(
            file: "README.md", firstLine: "swift run secure-notes v1-add",
            runBy: "DocumentedSwiftCommandTests.testTheSecureNotesExample"),
        Entry(
            file: "README.md",
            firstLine: "printf %s \"$DB_PASSWORD\" | keychain add-generic-password -s com.acme.app -a db --stdin",
            runBy: "DocumentedSwiftCommandTests.testTheReadmesIdentityExample"),
        Entry(
            file: "README.md", firstLine: "export KEYCHAIN_SYNC_SERVER=",
            runBy: "DocumentedCommandTests.testTheReadmesSyncCommands"),
        Entry(
            file: "Examples/SecureNotes/README.md", firstLine: "swift run secure-notes v1-add",
            runBy: "DocumentedSwiftCommandTests.testTheSecureNotesExample"),
        Entry(
            file: "Sources/KeychainCore/KeychainCore.docc/Performance.md",
            firstLine: "swift run --package-path Benchmarks -c release KeychainBenchmarks --scale",
            runBy:
                "not run: release builds of the benchmarks and of the released tool, minutes each on CI's two cores; `scripts/bench-anchors` and `scripts/instructions` are the reproducible commands, run by hand"
        ),
        Entry(
            file: "Sources/KeychainCore/KeychainCore.docc/Performance.md",
            firstLine: "swift run --package-path Benchmarks -c release KeychainBenchmarks --only files",
            runBy: "not run: a release build of the benchmarks (see the entry above)"),
        Entry(
            file: "Sources/KeychainCore/KeychainCore.docc/Performance.md",
            firstLine: "swift run --package-path Benchmarks -c release KeychainBenchmarks --sync",
            runBy:
                "not run: a release build of the benchmarks and a PostgreSQL cluster of its own (see the entries above)"
        ),
        Entry(
            file: "Sources/KeychainSync/KeychainSync.docc/Sync.md", firstLine: "keychain sync create --server",
            runBy: "DocumentedCommandTests.testTheSyncArticlesCommands"),
        Entry(
            file: "Sources/SecureStorage/SecureStorage.docc/KeychainTool.md", firstLine: "scripts/package",
            runBy:
                "scripts/test-package (run by scripts/test): the same scripts/package, of a debug build to keep CI short, installed with dpkg into an empty root rather than the machine's"
        ),
        Entry(
            file: "Sources/SecureStorage/SecureStorage.docc/KeychainTool.md",
            firstLine: "keychain add-generic-password -s api.example.com",
            runBy: "DocumentedCommandTests.testTheToolArticlesTour"),
        Entry(
            file: "Sources/SecureStorage/SecureStorage.docc/Lint.md",
            firstLine: "swift build -c release --disable-local-rpath --product keychain-lint",
            runBy:
                "DocumentedCommandTests.testTheLintArticlesCIRecipe (its lint line as written; the release build is not run: swift-syntax optimised takes many minutes on CI's two cores, so the test puts the debug keychain-lint at .build/release)"
        ),
        Entry(
            file: "Sources/SecureStorage/SecureStorage.docc/Lint.md",
            firstLine: "scripts/bench-lint-corpus --corpus /work/corpus",
            runBy:
                "not run: a benchmark of 11 apps fetched from GitHub at pinned commits and of mobsfscan from PyPI, minutes on CI's two cores; run by hand for the Lint article's table (LintCorpusDataTests checks its ground truth)"
        ),
        Entry(
            file: "Sources/SecureStorage/SecureStorage.docc/Servers.md",
            firstLine: "export SECURE_STORAGE_HOME=/var/lib/acme/keychain",
            runBy: "DocumentedCommandTests.testTheServersFirstStep"),
        Entry(
            file: "Sources/SecureStorage/SecureStorage.docc/Servers.md",
            firstLine: "export SECURE_STORAGE_HOME=/data/keychain",
            runBy: "DocumentedCommandTests.testTheServersContainerRecipe"),
        Entry(
            file: "Sources/SecureStorage/SecureStorage.docc/GettingStarted.md", firstLine: "printf %s \"$DB_PASSWORD\"",
            runBy: "DocumentedCommandTests.testGettingStartedsCommand"),
        Entry(
            file: "Sources/SecureStorage/SecureStorage.docc/Migration.md", firstLine: "keychain migrate --from .env",
            runBy: "DocumentedCommandTests.testTheMigrationArticlesCommands"),
        Entry(
            file: "Sources/SecureStorage/SecureStorage.docc/Migration.md",
            firstLine: "keychain migrate --from gnome-keyring --keyring login",
            runBy: "GnomeKeyringDocumentedCommandTests.testTheMigrationArticlesGnomeKeyringCommands"),
        Entry(
            file: "README.md", firstLine: "printf %s \"$TOKEN\" | secret-tool store",
            runBy: "AnyProgramDocumentedCommandTests.testTheSecretServiceBlocks"),
        Entry(
            file: "Sources/SecureStorage/SecureStorage.docc/AnyProgram.md", firstLine: "keychain create --passphrase",
            runBy: "AnyProgramDocumentedCommandTests.testTheServerBlock"),
        Entry(
            file: "Sources/SecureStorage/SecureStorage.docc/AnyProgram.md", firstLine: "keychaind install",
            runBy: "AnyProgramDocumentedCommandTests.testTheInstallBlock"),
        Entry(
            file: "Sources/SecureStorage/SecureStorage.docc/AnyProgram.md",
            firstLine: "printf %s \"$TOKEN\" | secret-tool store",
            runBy: "AnyProgramDocumentedCommandTests.testTheSecretServiceBlocks"),
        Entry(
            file: "CONTRIBUTING.md", firstLine: "swift build --build-tests --disable-local-rpath",
            runBy:
                "not run as written: it builds and runs this suite itself; scripts/test runs the same build command, then `swift test` with the same variables"
        ),
        Entry(
            file: "Sources/KeychainServices/KeychainServices.docc/LinuxDifferences.md",
            firstLine: "KEYCHAIN_SIMULATED_DEVICE=passcode,biometry=approve swift test",
            runBy:
                "not run as written: it runs the tests of your own package; SimulatedDeviceSuiteTests runs a wrapper-style suite under each of these KEYCHAIN_SIMULATED_DEVICE values"
        )
    ]
}

/// Every documented shell block is run by a test (or says why it cannot be).
final class DocumentedCommandCoverageTests: XCTestCase {
    func testEveryDocumentedShellBlockIsRunByATest() throws {
        let blocks = try DocumentedBlock.all()
        XCTAssertGreaterThan(blocks.count, 10, "the extraction finds the documents' blocks")
        for block in blocks {
            let entries = DocumentedCommandCoverage.entries.filter {
                $0.file == block.file && block.firstLine.hasPrefix($0.firstLine)
            }
            XCTAssertEqual(
                entries.count, 1,
                "\(block): add an entry to DocumentedCommandCoverage and a test that runs it as written")
        }
        for entry in DocumentedCommandCoverage.entries {
            let matching = blocks.filter { $0.file == entry.file && $0.firstLine.hasPrefix(entry.firstLine) }
            XCTAssertEqual(
                matching.count, 1,
                "DocumentedCommandCoverage lists \(entry.file) `\(entry.firstLine)`, which the documents no longer have"
            )
        }
    }
}
