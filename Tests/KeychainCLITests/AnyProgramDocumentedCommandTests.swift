#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import DBusTestSupport
import Foundation
import XCTest

/// The shell blocks of "Using the keychain from any program" and the README's Secret Service
/// block, run as written by a new user: keychaind from `PATH`, a throw-away home, no runtime
/// directory; the Secret Service blocks on a private session bus, with Python `keyring` first on
/// `PATH` (the venv of `SECURE_STORAGE_PYTHON`, as a user who installed it).
final class AnyProgramDocumentedCommandTests: DocumentedCommandCase {
    private static let article = "Sources/SecureStorage/SecureStorage.docc/AnyProgram.md"

    /// The keychaind a block started (its pid from `keychain status --json`), killed after the test.
    private func stopAgent(environment: [String: String]) throws {
        let status = try runWithoutTerminal("keychain status --json", environment: environment)
        guard let data = status.transcript.data(using: .utf8),
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let agent = json["agent"] as? [String: Any], let pid = agent["pid"] as? Int
        else { return XCTFail("no agent in `keychain status --json`:\n\(status.transcript)") }
        kill(pid_t(pid), SIGTERM)
        for _ in 0..<200 where kill(pid_t(pid), 0) == 0 { usleep(20_000) }
    }

    func testTheServerBlock() throws {
        let block = try block(Self.article, startingWith: "keychain create --passphrase")
        let run = try runOnTerminal(block.text)
        defer { try? stopAgent(environment: userEnvironment()) }
        XCTAssertSucceeded(run, block)
        XCTAssertTrue(run.transcript.contains("by keychaind (pid"), run.transcript)
        XCTAssertTrue(run.transcript.contains(", unlocked"), run.transcript)
    }

    func testTheInstallBlock() throws {
        let block = try block(Self.article, startingWith: "keychaind install")
        XCTAssertSucceeded(try runOnTerminal(block.text), block)
        let unit = userHome.appendingPathComponent(".config/systemd/user/keychaind.service")
        let activation = userHome.appendingPathComponent(".local/share/dbus-1/services/org.freedesktop.secrets.service")
        XCTAssertTrue(try String(contentsOf: unit, encoding: .utf8).contains("ExecStart="))
        XCTAssertTrue(try String(contentsOf: activation, encoding: .utf8).contains("Name=org.freedesktop.secrets"))
    }

    func testTheSecretServiceBlocks() throws {
        let python = try requireSecretServicePython()
        _ = try requireProgram("secret-tool", package: "libsecret-tools")
        for file in ["README.md", Self.article] {
            let block = try block(file, startingWith: "printf %s \"$TOKEN\" | secret-tool store")
            let bus = try startPrivateBus()
            try? FileManager.default.removeItem(at: userHome.appendingPathComponent(".local"))
            var environment = userEnvironment(["DBUS_SESSION_BUS_ADDRESS": bus.address])
            let pythonDirectory = URL(fileURLWithPath: python).deletingLastPathComponent().path
            environment["PATH"] = pythonDirectory + ":" + (environment["PATH"] ?? "")
            let setUp = try runWithoutTerminal("keychain create && keychaind", environment: environment)
            XCTAssertEqual(setUp.status, 0, setUp.transcript)
            defer { try? stopAgent(environment: environment) }
            let run = try runOnTerminal(block.text, environment: environment)
            XCTAssertSucceeded(run, block)
            XCTAssertEqual(
                run.transcript.components(separatedBy: Self.token).count - 1, 2,
                "keychain and keyring both print the token:\n\(run.transcript)")
            bus.stop()
        }
    }
}
