import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Issue 34 §4.2: the sync server is not trusted, and libpq's default notice processor prints
/// what it says (`NOTICE`, `WARNING`) to standard error as sent, terminal escape sequences
/// included. A server that raises such a notice while `keychain sync create` writes to it gets
/// only `?` onto the terminal.
final class ServerNoticeTests: SyncTestCase {
    /// The `keychain` executable built beside the test bundle.
    private var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4
        where !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("keychain").path) {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("keychain")
    }

    func testAServersNoticeNeverReachesTheTerminalRaw() throws {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            let message =
                "The keychain executable is not built at \(executable.path); run `swift build --build-tests` first."
            if ProcessInfo.processInfo.environment["REQUIRE_TEST_EXECUTABLES"] != nil { XCTFail(message) }
            throw XCTSkip(message)
        }
        _ = try SyncServer.connect(postgres.connectionString, circleID: UUID())  // the tables exist
        // The server's owner adds a trigger that speaks to every client writing a manifest.
        try postgres.psql(
            """
            CREATE FUNCTION keychain_sync_test_notice() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              RAISE NOTICE '%', 'title' || chr(27) || ']0;pwned' || chr(7) || 'clear' || chr(27) || '[2J' || 'csi' || chr(155) || '31m' || chr(8238) || 'end';
              RETURN NULL;
            END $$;
            CREATE TRIGGER keychain_sync_test_notice AFTER INSERT ON keychain_sync_manifests FOR EACH STATEMENT EXECUTE FUNCTION keychain_sync_test_notice();
            """)
        defer {
            _ = try? postgres.psql(
                "DROP TRIGGER keychain_sync_test_notice ON keychain_sync_manifests; DROP FUNCTION keychain_sync_test_notice()"
            )
        }

        let process = Process()
        process.executableURL = executable
        process.arguments = ["sync", "create", "--server", postgres.connectionString, "--name", "laptop"]
        var environment = ProcessInfo.processInfo.environment
        environment["SECURE_STORAGE_HOME"] = directory.appendingPathComponent("home").path
        environment["SECURE_STORAGE_TPM_TCTI"] = "none"
        environment["KEYCHAIN_SYNC_SERVER"] = nil
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stderrData = errors.fileHandleForReading.readDataToEndOfFile()
        let stdoutData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = String(decoding: stderrData, as: UTF8.self)
        let stdout = String(decoding: stdoutData, as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, stderr)
        XCTAssertTrue(stdout.contains("Created a sync circle"), stdout)
        XCTAssertTrue(
            stderr.contains("sync server: NOTICE:  title?]0;pwned?clear?[2Jcsi?31m?end\n"),
            "the notice, made safe: \(stderr.debugDescription)")
        for text in [stdout, stderr] {
            let raw = text.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E
            }
            XCTAssertEqual(raw.map { String(format: "U+%04X", $0.value) }, [], text.debugDescription)
        }
    }
}
