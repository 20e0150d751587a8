import Foundation
import XCTest
import AttackTestSupport

/// Protected files written by an app process (the `secure-storage-sample` stand-in): SIGKILL
/// during a replace leaves the old or the new file whole and no plaintext anywhere, and the
/// `keychain` tool hides the store's keys.
final class ProtectedFileCrashTests: CLITestCase {
    private let sample = CLITestCase.builtExecutable("secure-storage-sample")
    private var store: String { scratch.appendingPathComponent("files").path }

    private func app(_ arguments: String..., input: String = "") throws -> CLIResult {
        try run(arguments, input: Data(input.utf8), executable: sample)
    }

    /// 100 kills at random moments of a loop that replaces one file with ever larger versions.
    func testSIGKILLDuringReplaceLeavesAWholeFileAndNoPlaintext() throws {
        var generator = SplitMix64(seed: 20_261_124)
        let marker = Data("LOOP-PLAINTEXT-MARKER-7b1f".utf8)
        var last = 0
        var changes = 0
        for round in 0..<100 {
            try runKilled(
                ["replace-loop", store, "doc"], after: Double.random(in: 0.02...0.3, using: &generator),
                executable: sample)
            // Before the checker's store sweeps them: whatever the killed writer left holds no plaintext.
            for name in try FileManager.default.contentsOfDirectory(atPath: store) {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: store).appendingPathComponent(name))
                XCTAssertNil(bytes.range(of: marker), "round \(round): \(name) holds plaintext")
            }
            let checked = try app("check-version", store, "doc")
            guard checked.status == 0 else {
                // Killed before the very first version was written.
                XCTAssertEqual(last, 0, "round \(round): \(checked.stderr)")
                continue
            }
            let version = try XCTUnwrap(Int(checked.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
            XCTAssertGreaterThanOrEqual(version, last, "round \(round): a committed version never goes back")
            if version != last { changes += 1 }
            last = version
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: store).filter { $0.hasPrefix(".") }
            XCTAssertEqual(leftovers, [], "round \(round): opening the store removes abandoned temporary files")
        }
        XCTAssertGreaterThan(changes, 50, "the kills landed while the loop was writing")
        print("protected-file crash safety: 100 SIGKILLs, \(last) versions committed, \(changes) rounds advanced")
    }

    /// The app's store keys live in the library-owned namespace, which the tool never lists.
    func testTheToolHidesTheStoreKeysAndTheAppReadsItsFile() throws {
        XCTAssertStatus(try app("write-file", store, "notes.txt", "complete", input: "hello"), 0)
        XCTAssertEqual(try app("read-file", store, "notes.txt").stdout, "hello")
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "com.acme.app", "-a", "db", "--stdin", input: "pa55"), 0)
        let listed = try keychain("list")
        XCTAssertStatus(listed, 0)
        XCTAssertEqual(listed.stdout.split(separator: "\n").count, 1, listed.stdout)
        XCTAssertTrue(listed.stderr.contains("1 item"), listed.stderr)
        let keys = try keychain("list", "-s", "SecureStorage.files/default")
        XCTAssertEqual(keys.stdout, "", keys.stdout)
        XCTAssertEqual(try app("read-file", store, "notes.txt").stdout, "hello")
    }
}
