import AttackTestSupport
import Foundation
import GRDB
import TPMTestSupport
import XCTest

/// The tool's start-up shortcuts under attack: tpm2-tss opened with dlopen (a library that does
/// not load), and a reading command whose read-only instance finishes a checkpoint when it goes.
final class StartupShortcutAttackTests: CLITestCase {
    /// A directory with a `libtss2-esys.so.0` that defines none of the functions: found first
    /// through LD_LIBRARY_PATH, it stands for a missing or incomplete tpm2-tss.
    private func brokenTSS() throws -> String {
        let directory = scratch.appendingPathComponent("broken-tss")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "int nothing_here(void) { return 0; }\n".write(
            to: directory.appendingPathComponent("stub.c"), atomically: true, encoding: .utf8)
        // The toolchain's clang: this package's C targets need it, so every machine that built
        // the tool has it.
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = [
            "clang", "-shared", "-fPIC", "-Wl,-soname,libtss2-esys.so.0", "-o",
            directory.appendingPathComponent("libtss2-esys.so.0").path,
            directory.appendingPathComponent("stub.c").path
        ]
        try cc.run()
        cc.waitUntilExit()
        XCTAssertEqual(cc.terminationStatus, 0, "clang could not build the stub library")
        return directory.path
    }

    /// A TPM-bound keychain opened where tpm2-tss cannot be loaded fails closed, and says that
    /// the TPM software stack is missing — not that its sealed device secret is damaged.
    func testMissingTPMLibraryIsReportedAsSuch() throws {
        let tpm = try startSoftwareTPM()
        let withTPM: [String: String?] = ["SECURE_STORAGE_TPM_TCTI": tpm.tcti, "SECURE_STORAGE_TPM_BINDING": "required"]
        XCTAssertStatus(
            try run(
                ["add-generic-password", "-s", "svc", "-a", "a", "-w", "tpm-guarded"], input: Data(), changing: withTPM),
            0)
        var broken = withTPM
        broken["LD_LIBRARY_PATH"] = try brokenTSS()
        let result = try run(["find-generic-password", "-s", "svc", "-a", "a", "-w"], input: Data(), changing: broken)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertFalse(result.stdout.contains("tpm-guarded"))
        XCTAssertTrue(
            result.stderr.contains("tpm2-tss"),
            "the error does not say that the TPM software stack is missing: \(result.stderr)")
        XCTAssertFalse(result.stderr.contains("damaged"), result.stderr)
    }

    /// `keychain find -w` (a read-only opening) while another process holds a read transaction
    /// and the log holds frames: the answer is printed and the process exits at once, without
    /// waiting for a checkpoint that cannot finish while that reader is in the way.
    func testReadingCommandDoesNotStallOnExit() throws {
        try keychain("add-generic-password", "-s", "svc", "-a", "a", "-w", "one")
        let database = home.appendingPathComponent("data/keychain.db").path
        // Another process's read snapshot: this test process, holding a read transaction on the
        // file from another thread.
        let holder = try DatabaseQueue(
            path: database,
            configuration: {
                var configuration = Configuration()
                configuration.readonly = true
                return configuration
            }())
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? holder.read { db -> Int in
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM items") ?? 0
                started.signal()
                release.wait()
                return count
            }
            done.signal()
        }
        started.wait()
        defer {
            release.signal()
            done.wait()
            try? holder.close()
        }
        try keychain("add-generic-password", "-s", "svc", "-a", "b", "-w", "two")  // frames past the snapshot
        let clock = ContinuousClock.now
        let found = try keychain("find-generic-password", "-s", "svc", "-a", "b", "-w")
        let elapsed = ContinuousClock.now - clock
        XCTAssertEqual(found.stdout, "two\n")
        XCTAssertLessThan(elapsed, .seconds(2), "a reading command took \(elapsed)")
    }
}
