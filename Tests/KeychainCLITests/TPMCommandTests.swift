import AttackTestSupport
import Foundation
import TPMTestSupport
import XCTest

/// `keychain bind --tpm`, `unbind` and `status` against a software TPM, and a bind killed at
/// any point: the keychain always opens with the old binding or the new one.
final class TPMCommandTests: CLITestCase {
    var tpm: SoftwareTPM!
    var withTPM: [String: String?] { ["SECURE_STORAGE_TPM_TCTI": tpm.tcti] }

    override func setUpWithError() throws {
        try super.setUpWithError()
        tpm = try startSoftwareTPM()
    }

    private func keychainWithTPM(_ arguments: String..., input: String = "") throws -> CLIResult {
        try run(arguments, input: Data(input.utf8), changing: withTPM)
    }

    private func binding() throws -> [String: Any] {
        try XCTUnwrap(keychainWithTPM("status", "--json").json()["deviceBinding"] as? [String: Any])
    }

    /// Issue 35: bind and unbind read the passphrase once, the first line, whether --unlock is
    /// given and whether a session is open (`--unlock` used to read a line of its own first
    /// when the keychain was locked, so the second line decided).
    func testBindAndUnbindReadThePassphraseOnceWhateverTheSession() throws {
        XCTAssertStatus(try keychain("create", "--passphrase", input: "moving day\n"), 0)
        XCTAssertStatus(try keychainWithTPM("bind", "--tpm", "--unlock", input: "moving day\nwrong\n"), 0)
        XCTAssertEqual(try binding()["kind"] as? String, "tpm")
        XCTAssertStatus(try keychainWithTPM("unbind", "--unlock", input: "moving day\nwrong\n"), 0)
        XCTAssertEqual(try binding()["kind"] as? String, "key-file")
        XCTAssertStatus(try keychainWithTPM("unlock", input: "moving day\n"), 0)
        XCTAssertStatus(try keychainWithTPM("bind", "--tpm", "--unlock", input: "wrong\nmoving day\n"), 50)
        XCTAssertEqual(
            try binding()["kind"] as? String, "key-file", "a wrong first line changes nothing, session or not")
    }

    func testBindStatusAndUnbind() throws {
        try keychain("add-generic-password", "-s", "svc", "-a", "alice", "-w", "tpm-guarded")
        var current = try binding()
        XCTAssertEqual(current["kind"] as? String, "key-file")
        XCTAssertEqual(current["isProtectedBySecureHardware"] as? Bool, false)
        XCTAssertEqual(current["tpmAvailable"] as? String, tpm.tcti)
        XCTAssertTrue(
            try keychainWithTPM("status").stdout.contains("a TPM is available at \(tpm.tcti): `keychain bind --tpm`"))

        XCTAssertStatus(try keychainWithTPM("bind"), 64)
        let bound = try keychainWithTPM("bind", "--tpm", "--pcr", "7")
        XCTAssertStatus(bound, 0)
        XCTAssertTrue(bound.stderr.contains("bound to software TPM (\(tpm.tcti)), sealed to PCR 7"), bound.stderr)
        current = try binding()
        XCTAssertEqual(current["kind"] as? String, "tpm")
        XCTAssertEqual(current["tcti"] as? String, tpm.tcti)
        XCTAssertEqual(current["pcrs"] as? [Int], [7])
        XCTAssertEqual(current["isProtectedBySecureHardware"] as? Bool, false, "swtpm is a simulator")
        XCTAssertTrue(
            try keychainWithTPM("status").stdout.contains(
                "device binding:  software TPM (\(tpm.tcti)), sealed to PCR 7"))
        XCTAssertEqual(try keychainWithTPM("find-generic-password", "-s", "svc", "-w").stdout, "tpm-guarded\n")

        // Without the TPM: status 53 and what to do, never the secret.
        let noTPM = try keychain("find-generic-password", "-s", "svc", "-w")
        XCTAssertStatus(noTPM, 53)
        XCTAssertTrue(noTPM.stderr.contains("sealed by a TPM, and this process uses none"), noTPM.stderr)
        XCTAssertFalse(noTPM.stdout.contains("tpm-guarded") || noTPM.stderr.contains("tpm-guarded"))

        // Unbinding needs a passphrase, and the right one.
        XCTAssertStatus(try keychainWithTPM("unbind", input: "x\n"), 64)
        XCTAssertStatus(try keychainWithTPM("set-passphrase", input: "moving day\n"), 0)
        XCTAssertStatus(try keychainWithTPM("unbind", input: "wrong\n"), 50)
        XCTAssertEqual(try binding()["kind"] as? String, "tpm")
        XCTAssertStatus(try keychainWithTPM("unbind", input: "moving day\n"), 0)
        XCTAssertEqual(try binding()["kind"] as? String, "key-file")
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "svc", "-w", "--unlock", input: "moving day\n").stdout,
            "tpm-guarded\n")

        // Binding again makes a new device secret: with a passphrase it asks for it, and the
        // key file from before opens nothing afterwards.
        let clearFile = try Data(contentsOf: home.appendingPathComponent("state/device.key"))
        XCTAssertStatus(try keychainWithTPM("bind", "--tpm", input: "wrong\n"), 50)
        XCTAssertEqual(try binding()["kind"] as? String, "key-file", "a wrong passphrase changes nothing")
        XCTAssertStatus(try keychainWithTPM("bind", "--tpm", input: "moving day\n"), 0)
        XCTAssertEqual(
            try keychainWithTPM("find-generic-password", "-s", "svc", "-w", "--unlock", input: "moving day\n").stdout,
            "tpm-guarded\n")
        try clearFile.write(to: home.appendingPathComponent("state/device.key"))
        let refused = try keychain("find-generic-password", "-s", "svc", "-w", "--unlock", input: "moving day\n")
        XCTAssertStatus(refused, 53)
        XCTAssertTrue(refused.stderr.contains("does not belong to this keychain"), refused.stderr)
        XCTAssertFalse(refused.stdout.contains("tpm-guarded"))
        XCTAssertTrue(try keychain("bind", "--help").stdout.contains("opens nothing in the keychain afterwards"))
    }

    func testABindKilledAtAnyPointLeavesAKeychainThatOpens() throws {
        try keychain("add-generic-password", "-s", "svc", "-a", "alice", "-w", "survivor")
        var generator = SplitMix64(seed: 0x7419)
        var sawBound = false
        for round in 0..<16 {
            // Alternate between binding and rebinding to other PCRs.
            try runKilled(
                round % 2 == 0 ? ["bind", "--tpm"] : ["bind", "--tpm", "--pcr", "\(round % 24)"],
                after: Double(generator.next() % 400_000) / 1e6, changing: withTPM)

            let read = try keychainWithTPM("find-generic-password", "-s", "svc", "-w")
            XCTAssertStatus(read, 0)
            XCTAssertEqual(read.stdout, "survivor\n", "round \(round)")
            let kind = try binding()["kind"] as? String
            sawBound = sawBound || kind == "tpm"
            let leftovers = try FileManager.default.contentsOfDirectory(
                atPath: home.appendingPathComponent("state").path
            ).filter { $0.contains(".tmp-") }
            XCTAssertEqual(leftovers, [], "an opened keychain removes an abandoned device key file")
        }
        XCTAssertTrue(sawBound, "some binds completed")
    }

    func testOpensKilledDuringAPCRUnsealLeaveTheTPMUsable() throws {
        try keychain("add-generic-password", "-s", "svc", "-a", "alice", "-w", "still here")
        XCTAssertStatus(try keychainWithTPM("bind", "--tpm", "--pcr", "7"), 0)
        // Each open starts a policy session; a software TPM keeps what a killed client left, and
        // has three session slots.
        var generator = SplitMix64(seed: 0x5e55)
        for _ in 0..<10 {
            try runKilled(["status"], after: Double(generator.next() % 150_000) / 1e6, changing: withTPM)
        }
        XCTAssertEqual(try keychainWithTPM("find-generic-password", "-s", "svc", "-w").stdout, "still here\n")
    }
}
