import Foundation
import XCTest

/// "Set secrets with the tool, read them from the service": the `keychain` tool writes, and a
/// separate app process reads through the SecureStorage facade. Without configuration both
/// share one identity, whatever the app's executable is called; an app with a configured
/// identity sees the item only when entitled to its group.
final class IdentityRoundTripTests: CLITestCase {
    private let sample = CLITestCase.builtExecutable("secure-storage-sample")

    private func app(_ arguments: String..., identity: String? = nil, groups: String? = nil, executable: URL? = nil)
        throws -> CLIResult
    {
        try run(
            arguments, input: Data(), executable: executable ?? sample,
            changing: ["KEYCHAIN_APPLICATION_IDENTIFIER": identity, "KEYCHAIN_ACCESS_GROUPS": groups])
    }

    func testTheToolWritesAndAnUnconfiguredAppReadsWhateverItIsCalled() throws {
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "com.acme.app", "-a", "db", "--stdin", input: "pa55"), 0)
        let listed = try keychain("list")
        XCTAssertTrue(listed.stdout.contains("local.keychain"), "list shows the group: \(listed.stdout)")

        let read = try app("get", "com.acme.app", "db")
        XCTAssertStatus(read, 0)
        XCTAssertEqual(read.stdout, "pa55\n")
        XCTAssertEqual(try app("identity").stdout, "local.keychain\n")

        // The same binary under another name: the same identity, the same items.
        let renamed = scratch.appendingPathComponent("renamed-server")
        try FileManager.default.copyItem(at: sample, to: renamed)
        XCTAssertEqual(try app("keys", "com.acme.app", executable: renamed).stdout, "db\n")
        XCTAssertEqual(try app("get", "com.acme.app", "db", executable: renamed).stdout, "pa55\n")
    }

    func testAConfiguredAppSeesTheToolsItemOnlyWhenEntitled() throws {
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "com.acme.app", "-a", "db", "--stdin", input: "pa55"), 0)
        XCTAssertStatus(try app("get", "com.acme.app", "db", identity: "TEAM.com.acme.app"), 44)
        XCTAssertEqual(try app("keys", "com.acme.app", identity: "TEAM.com.acme.app").stdout, "")
        let entitled = try app("get", "com.acme.app", "db", identity: "TEAM.com.acme.app", groups: "local.keychain")
        XCTAssertStatus(entitled, 0)
        XCTAssertEqual(entitled.stdout, "pa55\n")
        // The tool can write straight into the app's own group.
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "-s", "com.acme.app", "-a", "api", "--access-group", "TEAM.com.acme.app",
                "--stdin", input: "k3y"), 0)
        XCTAssertEqual(try app("get", "com.acme.app", "api", identity: "TEAM.com.acme.app").stdout, "k3y\n")
        XCTAssertEqual(
            try app("keys", "com.acme.app").stdout, "api\ndb\n",
            "an unconfigured app sees every group, as the tool does")
    }

    /// Earlier versions put an unconfigured app's items in `local.<process name>`: they stay
    /// reachable, since unconfigured processes see every group.
    func testItemsOfEarlierVersionsPerProcessGroupsStayReachable() throws {
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "-s", "com.acme.app", "-a", "legacy", "--access-group", "local.my-server",
                "--stdin", input: "old"), 0)
        XCTAssertEqual(try app("get", "com.acme.app", "legacy").stdout, "old\n")
    }
}

/// `keychain unlock --passphrase-file` and the systemd credential, as a service unlocks.
final class UnattendedUnlockCommandTests: CLITestCase {
    private func secretFile(_ name: String, _ text: String, mode: Int) throws -> URL {
        let url = scratch.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url
    }

    func testAPassphraseFileOrCredentialUnlocksWithoutAPrompt() throws {
        XCTAssertStatus(try keychain("create", "--passphrase", input: "s3rvice pass\n"), 0)
        let file = try secretFile("pass", "s3rvice pass\n", mode: 0o600)
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "--passphrase-file", file.path, "-s", "com.acme.app", "-a", "db", "--stdin",
                input: "pa55"), 0)
        let readable = try secretFile("open", "s3rvice pass\n", mode: 0o644)
        let refused = try keychain("unlock", "--passphrase-file", readable.path)
        XCTAssertStatus(refused, 53)
        XCTAssertTrue(refused.stderr.contains("chmod 600"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("s3rvice"), "the passphrase is never echoed")

        XCTAssertStatus(try keychain("unlock", "--passphrase-file", file.path, "--timeout", "60"), 0)
        XCTAssertEqual(try keychain("find-generic-password", "-s", "com.acme.app", "-a", "db", "-w").stdout, "pa55\n")
        XCTAssertStatus(try keychain("lock"), 0)
        XCTAssertStatus(try keychain("find-generic-password", "-s", "com.acme.app", "-a", "db", "-w"), 51)
        let implied = try keychain(
            "find-generic-password", "--passphrase-file", file.path, "-s", "com.acme.app", "-a", "db", "-w")
        XCTAssertEqual(implied.stdout, "pa55\n", "--passphrase-file implies --unlock: \(implied.stderr)")

        // A systemd service: LoadCredential=secure-storage-passphrase:… puts it in $CREDENTIALS_DIRECTORY.
        let credentials = scratch.appendingPathComponent("credentials")
        try FileManager.default.createDirectory(
            at: credentials, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o500])
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: credentials.path)
        _ = try Data("s3rvice pass".utf8).write(to: credentials.appendingPathComponent("secure-storage-passphrase"))
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o400],
            ofItemAtPath: credentials.appendingPathComponent("secure-storage-passphrase").path)
        let unattended = try run(
            ["find-generic-password", "--unlock", "-s", "com.acme.app", "-a", "db", "-w"], input: Data(),
            changing: ["CREDENTIALS_DIRECTORY": credentials.path])
        XCTAssertStatus(unattended, 0)
        XCTAssertEqual(unattended.stdout, "pa55\n")
    }
}
