import Foundation
import XCTest

/// `export` and `import`: a round trip to a keychain with another device key, and damaged or
/// foreign files refused with a clear error and nothing imported.
final class BackupCommandTests: CLITestCase {
    func testExportImportRoundTripToAnotherDeviceKey() throws {
        try keychain("add-generic-password", "-s", "svc", "-a", "portable", "-w", "portable-secret", "-l", "kept label")
        try keychain(
            "add-generic-password", "-s", "svc", "-a", "background", "-w", "background-secret", "--accessibility", "ck")
        try keychain("add-generic-password", "-s", "svc", "-a", "bound", "-w", "bound-secret", "--accessibility", "aku")
        try keychain(
            "add-internet-password", "-s", "example.com", "-a", "web", "-w", "web-secret", "--accessibility", "cku")
        let backup = scratch.appendingPathComponent("keychain.backup").path

        let exported = try keychain("export", backup, "--json", input: "backup pass\n")
        XCTAssertStatus(exported, 0)
        XCTAssertEqual(try exported.json()["exportedItems"] as? Int, 2)
        XCTAssertEqual(try exported.json()["skippedThisDeviceOnlyItems"] as? Int, 2)
        XCTAssertStatus(try keychain("export", backup, input: "backup pass\n"), 64)
        XCTAssertStatus(try keychain("export", backup, "--force", input: "backup pass\n"), 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: backup))
        XCTAssertNil(bytes.range(of: Data("portable-secret".utf8)))

        let other = scratch.appendingPathComponent("other").path
        XCTAssertStatus(try keychain("import", backup, "--keychain", other, input: "wrong pass\n"), 50)
        let imported = try keychain("import", backup, "--keychain", other, "--json", input: "backup pass\n")
        XCTAssertStatus(imported, 0)
        XCTAssertEqual(try imported.json()["added"] as? Int, 2)
        let deviceKeys = try [home.path, other].map {
            try Data(contentsOf: URL(fileURLWithPath: $0 + "/state/device.key"))
        }
        XCTAssertNotEqual(deviceKeys[0], deviceKeys[1], "the second keychain has its own device key")
        XCTAssertEqual(
            try keychain("find-generic-password", "--keychain", other, "-a", "portable", "-w").stdout,
            "portable-secret\n")
        XCTAssertEqual(
            try keychain("find-generic-password", "--keychain", other, "-a", "background", "-w").stdout,
            "background-secret\n")
        XCTAssertEqual(
            (try keychain("find-generic-password", "--keychain", other, "-a", "portable", "--json").json()["attributes"]
                as? [String: Any])?["labl"] as? String, "kept label")
        XCTAssertStatus(try keychain("find-generic-password", "--keychain", other, "-a", "bound"), 44)
        XCTAssertStatus(try keychain("find-internet-password", "--keychain", other, "-s", "example.com"), 44)

        let again = try keychain("import", backup, "--keychain", other, "--json", input: "backup pass\n")
        XCTAssertEqual(try again.json()["keptExisting"] as? Int, 2)
        XCTAssertStatus(
            try keychain("import", backup, "--keychain", other, "--on-duplicate", "fail", input: "backup pass\n"), 45)
    }

    func testTamperedOrForeignBackupIsRejectedAndImportsNothing() throws {
        for index in 0..<3 {
            try keychain("add-generic-password", "-s", "svc", "-a", "\(index)", "-w", "secret-\(index)")
        }
        let backup = scratch.appendingPathComponent("b").path
        XCTAssertStatus(try keychain("export", backup, input: "pw\n"), 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: backup))
        bytes[bytes.count - 20] ^= 0x01
        let tampered = scratch.appendingPathComponent("tampered").path
        try bytes.write(to: URL(fileURLWithPath: tampered))
        let other = scratch.appendingPathComponent("other").path

        let rejected = try keychain("import", tampered, "--keychain", other, input: "pw\n")
        XCTAssertStatus(rejected, 52)
        XCTAssertTrue(rejected.stderr.contains("damaged or was tampered with"), rejected.stderr)
        XCTAssertTrue(rejected.stderr.contains("Nothing was imported"), rejected.stderr)
        XCTAssertEqual(try keychain("status", "--keychain", other, "--json").json()["totalItems"] as? Int, 0)

        let foreign = scratch.appendingPathComponent("notes.txt").path
        try Data("just some text".utf8).write(to: URL(fileURLWithPath: foreign))
        let notBackup = try keychain("import", foreign, "--keychain", other, input: "pw\n")
        XCTAssertStatus(notBackup, 64)
        XCTAssertTrue(notBackup.stderr.contains("not a SecureStorage keychain backup"), notBackup.stderr)
        XCTAssertStatus(try keychain("import", scratch.appendingPathComponent("missing").path, input: "pw\n"), 64)
    }
}
