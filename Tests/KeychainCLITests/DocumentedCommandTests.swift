import Foundation
import PostgresTestSupport
import XCTest

/// The documentation's shell blocks that need no build tool, run exactly as written by
/// ``DocumentedCommandCase`` (the ones with `swift run` are ``DocumentedSwiftCommandTests``).
final class DocumentedCommandTests: DocumentedCommandCase {
    func testTheReadmesToolTour() throws {
        let block = try block("README.md", startingWith: "keychain add-generic-password -s api.example.com")
        try runTheToolTour(block)
    }

    func testTheToolArticlesTour() throws {
        let block = try block(
            "Sources/SecureStorage/SecureStorage.docc/KeychainTool.md",
            startingWith: "keychain add-generic-password -s api.example.com")
        try runTheToolTour(block)
    }

    @discardableResult
    private func runTheToolTour(_ block: DocumentedBlock) throws -> (status: Int32, transcript: String) {
        let run = try runOnTerminal(block.text)
        XCTAssertSucceeded(run, block)
        XCTAssertTrue(
            run.transcript.contains(Self.secret),
            "find-generic-password -w printed the secret typed at add's prompt:\n\(run.transcript)")
        if block.text.contains("verify --unlock --json") {
            XCTAssertTrue(
                run.transcript.contains("\"clean\" : true"), "verify printed its JSON report, clean:\n\(run.transcript)"
            )
        }
        XCTAssertFalse(run.transcript.contains(Self.passphrase), "the passphrase is never displayed")
        return run
    }

    func testGettingStartedsCommand() throws {
        let block = try block(
            "Sources/SecureStorage/SecureStorage.docc/GettingStarted.md", startingWith: "printf %s \"$DB_PASSWORD\"")
        for run in [try runWithoutTerminal(block.text), try runOnTerminal(block.text + " -U")] where run.status != 0 {
            XCTFail("\(block) failed as written:\n\(run.transcript)")
        }
        let stored = try runWithoutTerminal("keychain find-generic-password -s com.acme.app -a db -w")
        XCTAssertEqual(stored.transcript, Self.databasePassword + "\n")
    }

    func testTheMigrationArticlesCommands() throws {
        let block = try block(
            "Sources/SecureStorage/SecureStorage.docc/Migration.md", startingWith: "keychain migrate --from .env")
        try "API_TOKEN=tok-123\nDB_PASSWORD=db-456\nLOG_LEVEL=debug\n".write(
            to: workingDirectory.appendingPathComponent(".env"), atomically: true, encoding: .utf8)
        let preferences = workingDirectory.appendingPathComponent("shared_prefs")
        try FileManager.default.createDirectory(at: preferences, withIntermediateDirectories: true)
        try """
        <?xml version='1.0' encoding='utf-8' standalone='yes' ?>
        <map>
            <string name="refresh_token">refresh-789</string>
            <boolean name="onboarded" value="true" />
        </map>
        """.write(to: preferences.appendingPathComponent("auth.xml"), atomically: true, encoding: .utf8)
        let run = try runOnTerminal(block.text)
        XCTAssertSucceeded(run, block)
        let environmentFile = try String(contentsOf: workingDirectory.appendingPathComponent(".env"), encoding: .utf8)
        XCTAssertFalse(environmentFile.contains("tok-123"), "the token moved out of .env:\n\(environmentFile)")
        XCTAssertFalse(
            environmentFile.contains("db-456"), "the database password moved out of .env:\n\(environmentFile)")
    }

    /// The lint article's CI recipe: its lint command as written, on the example's file, writes a
    /// SARIF log of the findings and exits 1. Its `swift build -c release` line is not run (a
    /// release build of swift-syntax takes many minutes on CI's two cores): the test puts the
    /// debug `keychain-lint` where that line would.
    func testTheLintArticlesCIRecipe() throws {
        let block = try block(
            "Sources/SecureStorage/SecureStorage.docc/Lint.md",
            startingWith: "swift build -c release --disable-local-rpath")
        let lines = block.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, "the recipe is a build and a lint:\n\(block.text)")
        let release = workingDirectory.appendingPathComponent(".build/release")
        try FileManager.default.createDirectory(at: release, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: release.appendingPathComponent("keychain-lint"),
            withDestinationURL: Self.executable.deletingLastPathComponent().appendingPathComponent("keychain-lint"))
        let sources = workingDirectory.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try Data(
            "import Foundation\nfunc keep(_ token: String) { UserDefaults.standard.set(token, forKey: \"authToken\") }\n"
                .utf8
        )
        .write(to: sources.appendingPathComponent("Store.swift"))
        let run = try runWithoutTerminal(lines[1])
        XCTAssertEqual(run.status, 1, "a finding exits 1:\n\(run.transcript)")
        let log =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: workingDirectory.appendingPathComponent("lint.sarif"))) as? [String: Any]
        let results = ((log?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        XCTAssertEqual(results.map { $0["ruleId"] as? String }, ["insecure-secret-storage"], "\(log ?? [:])")
    }

    /// The lint example of the lint article: its Swift file linted by the transcript's own
    /// commands gives exactly the transcript (positions included).
    func testTheLintExample() throws {
        let article = "Sources/SecureStorage/SecureStorage.docc/Lint.md"
        let text = try String(
            contentsOf: DocumentedBlock.repositoryRoot.appendingPathComponent(article), encoding: .utf8)
        let fences = text.components(separatedBy: "```")
        guard let transcriptIndex = fences.firstIndex(where: { $0.hasPrefix("text\n$ keychain lint Sources\n") }),
            transcriptIndex >= 2,
            fences[transcriptIndex - 2].hasPrefix("swift\n")
        else {
            return XCTFail("\(article) has no Swift example followed by a `$ keychain lint Sources` transcript")
        }
        XCTAssertTrue(
            fences[transcriptIndex - 3].hasSuffix("`Sources/App/TokenStore.swift`:\n\n"),
            "the article names the file it lints")
        let source = String(fences[transcriptIndex - 2].dropFirst("swift\n".count))
        let transcript = fences[transcriptIndex].dropFirst("text\n".count).split(separator: "\n").map(String.init)
        let commands = transcript.filter { $0.hasPrefix("$ ") }.map { String($0.dropFirst(2)) }
        let expected = transcript.filter { !$0.hasPrefix("$ ") }
        let sources = workingDirectory.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try source.write(to: sources.appendingPathComponent("TokenStore.swift"), atomically: true, encoding: .utf8)
        let run = try runWithoutTerminal((["set +e"] + commands).joined(separator: "\n"))
        XCTAssertEqual(
            run.transcript.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), expected + [""],
            "keychain lint prints what the article shows")
    }

    /// The Servers article's container recipe, at its own paths (`/data/keychain`,
    /// `/run/secrets/keychain-passphrase`): run as root in a mount namespace of its own, where
    /// both are fresh tmpfs mounts (as a volume and a secret are in a container), without a
    /// terminal or a runtime directory.
    func testTheServersContainerRecipe() throws {
        let block = try block(
            "Sources/SecureStorage/SecureStorage.docc/Servers.md",
            startingWith: "export SECURE_STORAGE_HOME=/data/keychain")
        guard getuid() == 0 else {
            return XCTFail(
                "the container recipe runs at /data and /run/secrets in a mount namespace, which needs root (CI runs as root)"
            )
        }
        let createdData = !FileManager.default.fileExists(atPath: "/data")
        defer { if createdData { rmdir("/data") } }
        let setUp = """
            mkdir -p /data && mount -t tmpfs -o mode=0755 tmpfs /data
            mount -t tmpfs -o mode=0755 tmpfs /run && mkdir -m 0700 /run/secrets
            (umask 277 && printf '%s\\n' 'container passphrase' > /run/secrets/keychain-passphrase)
            """
        let check =
            "keychain find-generic-password -s com.acme.app -a db -w --passphrase-file /run/secrets/keychain-passphrase"
        let script = [setUp, block.text, check].joined(separator: "\n")
        let run = try runWithoutTerminal(
            "exec unshare --mount --propagation private /bin/bash -e -o pipefail -c \"$SCRIPT\"",
            environment: userEnvironment(["SCRIPT": script]))
        XCTAssertSucceeded(run, block)
        XCTAssertTrue(
            run.transcript.hasSuffix(Self.databasePassword + "\n"),
            "the secret stored by the recipe reads back:\n\(run.transcript)")
        XCTAssertFalse(run.transcript.contains("container passphrase"), "the passphrase is never displayed")
    }

    /// The Servers article's first step, at the unit's own keychain directory
    /// (`/var/lib/acme/keychain`, a tmpfs in a mount namespace of its own), without a terminal:
    /// the passphrase typed into `cat` arrives through the pipe. The secret is then found where
    /// the unit looks (a new user's trial found step 1 and the unit in different keychains).
    func testTheServersFirstStep() throws {
        let block = try block(
            "Sources/SecureStorage/SecureStorage.docc/Servers.md",
            startingWith: "export SECURE_STORAGE_HOME=/var/lib/acme/keychain")
        guard getuid() == 0 else {
            return XCTFail(
                "the server recipe runs at /var/lib/acme in a mount namespace, which needs root (CI runs as root)")
        }
        let createdDirectory = !FileManager.default.fileExists(atPath: "/var/lib/acme")
        defer { if createdDirectory { rmdir("/var/lib/acme") } }
        let setUp = "mkdir -p /var/lib/acme && mount -t tmpfs -o mode=0755 tmpfs /var/lib/acme"
        let check = "keychain find-generic-password -s com.acme.app -a db -w --passphrase-file ~/keychain-passphrase"
        let script = [setUp, block.text, check].joined(separator: "\n")
        let run = try runWithoutTerminal(
            "exec unshare --mount --propagation private /bin/bash -e -o pipefail -c \"$SCRIPT\"",
            input: Self.passphrase + "\n", environment: userEnvironment(["SCRIPT": script]))
        XCTAssertSucceeded(run, block)
        XCTAssertTrue(
            run.transcript.hasSuffix(Self.databasePassword + "\n"),
            "the unit's keychain holds the secret:\n\(run.transcript)")
    }

    // MARK: Sync

    func testTheReadmesSyncCommands() throws {
        let block = try block("README.md", startingWith: "export KEYCHAIN_SYNC_SERVER=")
        try runSyncCommands(block)
    }

    func testTheSyncArticlesCommands() throws {
        let block = try block(
            "Sources/KeychainSync/KeychainSync.docc/Sync.md", startingWith: "keychain sync create --server")
        try runSyncCommands(block)
    }

    /// Runs a sync block as two devices would: the lines run on the device their comment names
    /// (`# laptop`, `# server`; without one, `create` and `approve` run on the member and the
    /// rest on the joining device), each in its own home. The server's host name is the
    /// document's; libpq reaches a throw-away PostgreSQL on loopback through `PGHOSTADDR`. The only
    /// change to a line: a code shortened with `…` (`--circle PJIF-4W66-…`) is the code the
    /// previous command printed.
    private func runSyncCommands(_ block: DocumentedBlock) throws {
        let server = try PostgresTestServer(listeningOnLoopback: true)
        try server.psql("CREATE ROLE alice LOGIN")
        try server.psql("CREATE DATABASE keychain OWNER alice")
        let lines = block.text.split(separator: "\n").map(String.init)
        let exports = lines.filter { $0.hasPrefix("export ") }
        let member = userHome.appendingPathComponent("laptop")
        let joiner = userHome.appendingPathComponent("server")
        for directory in [member, joiner] {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        func environment(_ home: URL) -> [String: String] {
            userEnvironment([
                "HOME": home.path, "PGHOSTADDR": "127.0.0.1", "PGPORT": "\(server.loopbackPort!)",
                "PGCONNECT_TIMEOUT": "5"
            ])
        }
        func onMember(_ line: String) -> Bool {
            if line.contains("# laptop") || line.contains("# on the member") { return true }
            if line.contains("# server") { return false }
            return line.contains("sync create") || line.contains("sync approve")
        }
        var circleCode = ""
        var approvalCode = ""
        var join: ShellSession?
        for line in lines where !line.hasPrefix("export ") {
            let script =
                (exports + [
                    line.replacingOccurrences(
                        of: #"[A-Z2-7]{4}-[A-Z2-7]{4}-…"#, with: circleCode, options: .regularExpression)
                ]).joined(separator: "\n")
            let home = onMember(line) ? member : joiner
            if line.contains("sync join") {
                // A script: output to a pipe, read while the join waits for its approval.
                let session = try ShellSession(
                    script, in: workingDirectory, environment: environment(home), streams: .pipes(input: ""))
                _ = session.wait(timeout: 120) { !Self.longestCode(in: $0).isEmpty }
                approvalCode = Self.longestCode(in: session.text)
                join = session
                guard !approvalCode.isEmpty else {
                    session.terminate()
                    _ = session.finish(timeout: 30)
                    return XCTFail("join showed no approval code while waiting, through a pipe:\n\(session.text)")
                }
            } else if line.contains("sync approve") {
                let session = try ShellSession(
                    script, in: workingDirectory, environment: environment(home), streams: .terminal)
                session.expect("Approval code")
                session.expect(": ")
                session.type(approvalCode)
                let status = session.finish(timeout: 120)
                XCTAssertEqual(status, 0, "\(block) `\(line)` failed:\n\(session.text)")
                if let join {
                    XCTAssertEqual(join.finish(timeout: 120), 0, "the join ends once approved:\n\(join.text)")
                }
            } else if line.contains("sync watch") {
                let session = try ShellSession(
                    script, in: workingDirectory, environment: environment(home), streams: .pipes(input: ""))
                XCTAssertNotNil(
                    session.expect("\n", timeout: 60), "sync watch reports its first round through a pipe while it runs"
                )
                session.terminate()
                _ = session.finish(timeout: 30)
            } else {
                let run = try runWithoutTerminal(script, environment: environment(home))
                XCTAssertSucceeded(run, block)
                if line.contains("sync create") { circleCode = Self.longestCode(in: run.transcript) }
                XCTAssertFalse(circleCode.isEmpty, "create printed the circle code:\n\(run.transcript)")
            }
        }
        XCTAssertNotNil(join, "\(block) joins a device")
    }

    /// The longest code (groups of letters and digits joined by dashes) in `text`.
    private static func longestCode(in text: String) -> String {
        let expression = try! NSRegularExpression(pattern: "[A-Z2-7]{4}(-[A-Z2-7]{1,4}){3,}")
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap {
            Range($0.range, in: text).map { String(text[$0]) }
        }
        .max { $0.count < $1.count } ?? ""
    }
}
