import AttackTestSupport
import Foundation
import KeychainCore
import StressSupport
import TPMTestSupport
import XCTest

/// Binding rotates the device secret: the database is rewritten under a new secret and the
/// device key file replaced after it. A SIGKILL at any moment of repeated binds and rebinds must
/// leave a keychain that opens and verifies with every item, and only one device key file — the
/// old or the new — that opens it: every earlier file is refused.
final class BindRotationStressTests: XCTestCase {
    private let items = 25
    private let accessibilities: [(String, Accessibility)] = [
        ("dk", .always), ("ck", .afterFirstUnlock), ("ak", .whenUnlocked),
        ("pk", .whenPasscodeSetThisDeviceOnly)
    ]

    /// A keychain with a key file and `items` items of each protection class, with passphrase step 0.
    private func makeKeychain(in scratch: ScratchDirectory, tpm: TPMDevice) throws -> KeychainLocation {
        let location = KeychainLocation(directory: scratch.file("keychain"))
        let keychain = try Keychain.create(
            at: location, passphrase: rotationPassphrase(0), options: rotationOptions(tpm: tpm))
        var batch: [NewItem] = []
        for index in 0..<items {
            for (prefix, accessibility) in accessibilities {
                let name = "\(prefix)-\(index)"
                batch.append(
                    NewItem(
                        .genericPassword, attributes: [.service: "bind", .account: .string(name)],
                        data: Data(name.utf8), accessibility: accessibility))
            }
        }
        try keychain.add(contentsOf: batch)
        return location
    }

    /// Opens the keychain (finishing or rolling back an interrupted bind), then checks that every
    /// item decrypts to its own name and the keychain verifies clean.
    private func assertIntact(_ location: KeychainLocation, tpm: TPMDevice, _ context: String) throws {
        let keychain = try Keychain(location: location, options: rotationOptions(tpm: tpm))
        try keychain.unlock(passphrase: rotationPassphrase(0))
        let found = try keychain.find(
            Query(.genericPassword, [AttributeKey.service: .string("bind")], limit: .all),
            returning: [.attributes, .data])
        XCTAssertEqual(found.count, accessibilities.count * items, context)
        for item in found {
            XCTAssertEqual(item.data, item.attributes[.account]?.stringValue.map { Data($0.utf8) }, context)
        }
        let report = try keychain.verify()
        XCTAssertTrue(report.isClean, "\(context): \(report)")
    }

    /// Whether the keychain's database opens with `deviceKeyFile` in place of its own (tried on a
    /// copy of its files, so the keychain itself is never touched).
    private func opens(
        _ location: KeychainLocation, with deviceKeyFile: Data, tpm: TPMDevice, scratch: ScratchDirectory
    ) throws -> Bool {
        let copy = scratch.file("copy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.createDirectory(
            at: copy, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let home = location.databaseURL.deletingLastPathComponent().deletingLastPathComponent()
        for part in ["data", "state"] {
            try FileManager.default.copyItem(
                at: home.appendingPathComponent(part), to: copy.appendingPathComponent(part))
        }
        let copied = KeychainLocation(directory: copy)
        try deviceKeyFile.write(to: copied.deviceKeyURL)
        do {
            _ = try Keychain(location: copied, options: rotationOptions(tpm: tpm))
            return true
        } catch {
            XCTAssertEqual(
                error.code, .keychainUnavailable,
                "an earlier device key file is refused as not this keychain's: \(error)")
            return false
        }
    }

    /// `STRESS_BIND_KILLS` sets the number of kills (default 24).
    func testSIGKILLDuringBindLeavesTheOldOrTheNewDeviceKeyWorking() throws {
        let kills = ProcessInfo.processInfo.environment["STRESS_BIND_KILLS"].flatMap(Int.init) ?? 24
        let tpm = try startSoftwareTPM()
        let device = TPMDevice(tcti: tpm.tcti)
        let scratch = try ScratchDirectory("kc-bind-crash")
        let location = try makeKeychain(in: scratch, tpm: device)
        let home = location.databaseURL.deletingLastPathComponent().deletingLastPathComponent().path
        let stateDirectory = location.deviceKeyURL.deletingLastPathComponent().path
        var earlierFiles: [Data] = []
        var current = try Data(contentsOf: location.deviceKeyURL)
        var completed = 0
        var fileChanges = 0
        for round in 0..<kills {
            let journal = scratch.file("journal-\(round)")
            let helper = try StressHelper.start(
                ["bind-loop", "--keychain", home, "--tpm", tpm.tcti, "--journal", journal.path],
                output: scratch.file("out"), errors: scratch.file("err-\(round)"))
            usleep(UInt32.random(in: 100_000...700_000))
            StressHelper.killHard(helper)
            let lines = String(decoding: (try? Data(contentsOf: journal)) ?? Data(), as: UTF8.self).split(
                separator: "\n")
            completed += lines.filter { $0.hasPrefix("A ") }.count

            try assertIntact(location, tpm: device, "round \(round)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: stateDirectory).filter {
                $0.hasSuffix(".pending") || $0.contains(".tmp-")
            }
            XCTAssertEqual(leftovers, [], "round \(round): opening finished or rolled back the interrupted bind")
            let now = try Data(contentsOf: location.deviceKeyURL)
            if now != current {
                earlierFiles = Array((earlierFiles + [current]).suffix(3))
                fileChanges += 1
            }
            current = now
            XCTAssertTrue(
                try opens(location, with: current, tpm: device, scratch: scratch),
                "round \(round): the current device key file opens the keychain")
            for (index, earlier) in earlierFiles.enumerated() {
                XCTAssertFalse(
                    try opens(location, with: earlier, tpm: device, scratch: scratch),
                    "round \(round): an earlier device key file (\(earlierFiles.count - index) back) opens nothing")
            }
        }
        XCTAssertGreaterThan(completed, kills / 2, "the helper completed binds between kills")
        print(
            "bind crash safety: \(kills) kills, \(completed) binds acknowledged, \(fileChanges) rounds changed the device key file"
        )
    }
}
