import Foundation
import XCTest

/// `keychaind install` writes the systemd user unit and the D-Bus activation file (0644, naming
/// keychaind by its absolute path), never over a file it did not write; `uninstall` removes its
/// own files only.
final class AgentInstallTests: AgentTestCase {
    private var changes: [String: String?] {
        ["HOME": scratch.path, "XDG_CONFIG_HOME": nil, "XDG_DATA_HOME": nil]
    }

    private var unit: URL { scratch.appendingPathComponent(".config/systemd/user/keychaind.service") }
    private var activation: URL {
        scratch.appendingPathComponent(".local/share/dbus-1/services/org.freedesktop.secrets.service")
    }

    func testInstallWritesBothFilesAndUninstallRemovesThem() throws {
        XCTAssertStatus(try run(Self.keychaind, ["install"], changing: changes), 0)
        let unitText = try String(contentsOf: unit, encoding: .utf8)
        let keychaind = Self.keychaind.resolvingSymlinksInPath().path
        XCTAssertTrue(unitText.contains("ExecStart=\(keychaind) run --foreground"), unitText)
        XCTAssertTrue(unitText.contains("Environment=SECURE_STORAGE_HOME=\(home.path)"), unitText)
        let activationText = try String(contentsOf: activation, encoding: .utf8)
        for line in [
            "[D-BUS Service]", "Name=org.freedesktop.secrets",
            "Exec=/usr/bin/env SECURE_STORAGE_HOME=\(home.path) \(keychaind) run --foreground",
            "SystemdService=keychaind.service"
        ] {
            XCTAssertTrue(activationText.contains(line + "\n"), activationText)
        }
        for url in [unit, activation] {
            let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o644, url.path)
        }
        XCTAssertStatus(try run(Self.keychaind, ["install"], changing: changes), 0)  // its own files: replaced
        XCTAssertStatus(try run(Self.keychaind, ["uninstall"], changing: changes), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: unit.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: activation.path))
    }

    func testAFileItDidNotWriteIsNeitherReplacedNorRemoved() throws {
        let foreign = "[D-BUS Service]\nName=org.freedesktop.secrets\nExec=/usr/bin/gnome-keyring-daemon --start\n"
        try FileManager.default.createDirectory(
            at: activation.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(foreign.utf8).write(to: activation)

        let install = try run(Self.keychaind, ["install"], changing: changes)
        XCTAssertStatus(install, 64)
        XCTAssertTrue(install.stderr.contains("was not written by `keychaind install`"), install.stderr)
        XCTAssertEqual(try String(contentsOf: activation, encoding: .utf8), foreign)
        XCTAssertStatus(try run(Self.keychaind, ["uninstall"], changing: changes), 64)
        XCTAssertEqual(try String(contentsOf: activation, encoding: .utf8), foreign)
    }

    /// Review 37 F6: a path with a newline would have started a directive of its own
    /// (`ExecStartPre=…`); it is refused, and `$` and `%` reach keychaind as written.
    func testPathsCannotInjectDirectivesAndAreQuotedForEachSyntax() throws {
        let injected = "/tmp/nl\nExecStartPre=/bin/touch /tmp/PWNED\nx"
        let refused = try run(
            Self.keychaind, ["install"], changing: changes.merging(["SECURE_STORAGE_HOME": injected]) { $1 })
        XCTAssertStatus(refused, 64)
        XCTAssertTrue(refused.stderr.contains("contains a control character"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: unit.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: activation.path))

        let odd = scratch.appendingPathComponent("my $HOME 100%").path
        XCTAssertStatus(
            try run(Self.keychaind, ["install"], changing: changes.merging(["SECURE_STORAGE_HOME": odd]) { $1 }), 0)
        let unitText = try String(contentsOf: unit, encoding: .utf8)
        XCTAssertTrue(
            unitText.contains("Environment=\"SECURE_STORAGE_HOME=\(scratch.path)/my $$HOME 100%%\"\n"), unitText)
        let activationText = try String(contentsOf: activation, encoding: .utf8)
        XCTAssertTrue(activationText.contains("\"SECURE_STORAGE_HOME=\(scratch.path)/my $HOME 100%\""), activationText)
    }
}
