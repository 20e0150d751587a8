import Foundation
import KeychainCore
import StressSupport
import XCTest

/// Passphrase changes rotate the class keys and rewrap every item in one transaction. These
/// tests run that rotation against other processes: readers must never see wrong data or a
/// half-rotated keychain, and a SIGKILL at any moment must leave exactly one passphrase — the
/// old or the new one — that opens every item.
final class RotationStressTests: XCTestCase {
    private let items = 40

    /// A keychain with `items` always and afterFirstUnlock items, protected by step 0's passphrase.
    private func makeKeychain(in scratch: ScratchDirectory) throws -> KeychainLocation {
        let location = KeychainLocation(directory: scratch.file("keychain"))
        let keychain = try Keychain.create(at: location, passphrase: rotationPassphrase(0), options: rotationOptions)
        var batch: [NewItem] = []
        for index in 0..<items {
            for (prefix, accessibility) in [("dk", Accessibility.always), ("ck", .afterFirstUnlock)] {
                let name = "\(prefix)-\(index)"
                batch.append(
                    NewItem(
                        .genericPassword, attributes: [.service: "rotation", .account: .string(name)],
                        data: Data(name.utf8), accessibility: accessibility))
            }
        }
        try keychain.add(contentsOf: batch)
        return location
    }

    /// Every item decrypts with `passphrase`, to its own name, and the keychain verifies clean.
    private func assertIntact(_ location: KeychainLocation, passphrase: String, _ context: String) throws {
        let keychain = try Keychain(location: location, options: rotationOptions)
        try keychain.unlock(passphrase: passphrase)
        let found = try keychain.find(
            Query(.genericPassword, [AttributeKey.service: .string("rotation")], limit: .all),
            returning: [.attributes, .data])
        XCTAssertEqual(found.count, 2 * items, context)
        for item in found {
            XCTAssertEqual(item.data, item.attributes[.account]?.stringValue.map { Data($0.utf8) }, context)
        }
        let report = try keychain.verify()
        XCTAssertTrue(report.isClean, "\(context): \(report)")
    }

    func testRotationUnderConcurrentReadersInOtherProcesses() throws {
        let scratch = try ScratchDirectory("kc-rotation-readers")
        let location = try makeKeychain(in: scratch)
        let readers = try (0..<2).map { index in
            try StressHelper.start(
                [
                    "read-loop", "--keychain",
                    location.databaseURL.deletingLastPathComponent().deletingLastPathComponent().path,
                    "--seconds", "4", "--items", "\(items)"
                ],
                output: scratch.file("reader-\(index).json"), errors: scratch.file("reader-\(index).err"))
        }
        usleep(300_000)
        let keychain = try Keychain(location: location, options: rotationOptions)
        var step = 0
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            try keychain.changePassphrase(from: rotationPassphrase(step), to: rotationPassphrase(step + 1))
            step += 1
        }
        XCTAssertGreaterThan(step, 3, "the test rotated several times while the readers ran")
        for (index, reader) in readers.enumerated() {
            XCTAssertTrue(StressHelper.wait(for: reader, timeout: 60), "reader \(index) finished")
            XCTAssertEqual(
                reader.terminationStatus, 0,
                String(decoding: (try? Data(contentsOf: scratch.file("reader-\(index).err"))) ?? Data(), as: UTF8.self))
            let summary = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(contentsOf: scratch.file("reader-\(index).json")))
                    as? [String: Any])
            XCTAssertEqual(
                summary["failures"] as? [String], [],
                "reader \(index) saw no wrong data and no error but a rotated-away key")
            XCTAssertGreaterThan(summary["reads"] as? Int ?? 0, 100, "reader \(index) read throughout")
            XCTAssertGreaterThan(
                summary["refused"] as? Int ?? 0, 0, "reader \(index) lost its afterFirstUnlock keys to the rotation")
        }
        try assertIntact(location, passphrase: rotationPassphrase(step), "after \(step) rotations under readers")
    }

    /// `STRESS_ROTATION_KILLS` sets the number of kills (default 40).
    func testSIGKILLDuringRotationLeavesTheOldOrTheNewPassphraseWorking() throws {
        let kills = ProcessInfo.processInfo.environment["STRESS_ROTATION_KILLS"].flatMap(Int.init) ?? 40
        let scratch = try ScratchDirectory("kc-rotation-crash")
        let location = try makeKeychain(in: scratch)
        let home = location.databaseURL.deletingLastPathComponent().deletingLastPathComponent().path
        var acknowledged = 0
        var landedInFlight = 0
        for round in 0..<kills {
            let journal = scratch.file("journal-\(round)")
            let helper = try StressHelper.start(
                ["rotate-loop", "--keychain", home, "--journal", journal.path, "--from", "\(acknowledged)"],
                output: scratch.file("out"), errors: scratch.file("err-\(round)"))
            usleep(UInt32.random(in: 60_000...400_000))
            StressHelper.killHard(helper)
            let lines = String(decoding: (try? Data(contentsOf: journal)) ?? Data(), as: UTF8.self).split(
                separator: "\n")
            if let last = lines.last(where: { $0.hasPrefix("A ") }), let step = Int(last.dropFirst(2)) {
                acknowledged = step
            }
            // The one change in flight may or may not have committed; exactly one passphrase works.
            let old = rotationPassphrase(acknowledged)
            let new = rotationPassphrase(acknowledged + 1)
            let keychain = try Keychain(location: location, options: rotationOptions)
            let oldWorks = (try? keychain.unlock(passphrase: old)) != nil
            let newWorks = (try? keychain.unlock(passphrase: new)) != nil
            XCTAssertTrue(
                oldWorks != newWorks,
                "round \(round): exactly one of the old and the new passphrase works (old \(oldWorks), new \(newWorks))"
            )
            if newWorks {
                acknowledged += 1
                landedInFlight += 1
            }
            try assertIntact(location, passphrase: rotationPassphrase(acknowledged), "round \(round)")
        }
        XCTAssertGreaterThan(acknowledged, kills / 2, "the helper completed rotations between kills")
        print(
            "rotation crash safety: \(kills) kills, \(acknowledged) rotations committed, \(landedInFlight) of them in flight at the kill"
        )
    }
}
