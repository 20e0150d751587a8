#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import KeychainServices
import SecureStorage
import XCTest

/// Protected-file format 1 as this version wrote it (Fixtures/protected-files-v1: a keychain and
/// a store written by `secure-storage-sample write-file`): later versions must keep opening it.
final class ProtectedFileFormatTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/protected-files-v1")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pf-fixture-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: fixture, to: directory)
        // Git keeps no modes: give the copy the private ones the files had.
        for path in try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: directory.path)) + [""] {
            var isDirectory: ObjCBool = false
            let full = directory.appendingPathComponent(path).path
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
            chmod(full, isDirectory.boolValue ? 0o700 : 0o600)
        }
        let keychain = try Keychain(
            location: KeychainLocation(directory: directory.appendingPathComponent("keychain")),
            options: KeychainOptions(tpm: nil))
        SecItemEnvironment.useKeychain(keychain)
        SecItemEnvironment.applicationIdentity = .sharedDefault
    }

    override func tearDownWithError() throws {
        SecItemEnvironment.reset()
        try? FileManager.default.removeItem(at: directory)
    }

    func testFormat1FilesOfEveryClassStillOpen() throws {
        let files = try ProtectedFiles(directory: directory.appendingPathComponent("files"))
        for protection in FileProtection.allCases {
            XCTAssertEqual(
                try files.read("\(protection).txt"), Data("protected-file format 1, class \(protection)".utf8))
            XCTAssertEqual(try files.protection(of: "\(protection).txt"), protection)
        }
        XCTAssertEqual(
            try files.read("chunks.bin"), Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 131) }), "two chunks")
        // And the store goes on: a new file next to them.
        try files.write(Data("new".utf8), to: "new.txt", protection: .complete)
        XCTAssertEqual(try files.read("new.txt"), Data("new".utf8))
    }
}
#endif
