import AttackTestSupport
import Foundation
import FuzzTargets
import KeychainServices
import XCTest

/// The in-CI half of fuzzing (the libFuzzer half is `scripts/fuzz`): every committed input under
/// `Fuzz/Corpus` — seeds and the reproducer of every crash a fuzzing run ever found — replays
/// without a crash, the seeds still reach deep into each target, and a fixed number of
/// deterministic mutations of them runs clean.
///
/// `FUZZ_MUTATIONS` sets the mutations per target (default 3000 for SecItem, 2000 for SecKey, 1000 for backups).
final class FuzzRegressionTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/Corpus").standardizedFileURL

    override func tearDown() {
        #if !canImport(Security)
        SecItemEnvironment.reset()  // the SecItem target pointed the API at its own keychain
        #endif
    }

    #if !canImport(Security)  // the SecItem target exercises KeychainServices' own implementation
    func testSecItemCorpusReplaysAndSeedsSucceed() throws {
        let files = FuzzMain.files(at: Self.corpus.appendingPathComponent("secitem"))
        XCTAssertFalse(files.isEmpty, "no corpus at \(Self.corpus.path)")
        for file in files { SecItemFuzzTarget.run(try Data(contentsOf: file)) }
        // Each input starts from the same canonical items, so every seed succeeds.
        let statuses = SecItemFuzzTarget.seeds.map(SecItemFuzzTarget.run)
        XCTAssertEqual(
            statuses, [errSecSuccess, errSecSuccess, errSecSuccess, errSecSuccess],
            "the seeds must decode to a valid add, find, update and delete")
    }

    func testBackupCorpusReplaysAndSeedsImport() throws {
        let files = FuzzMain.files(at: Self.corpus.appendingPathComponent("backup"))
        XCTAssertFalse(files.isEmpty, "no corpus at \(Self.corpus.path)")
        for file in files { BackupFuzzTarget.run(try Data(contentsOf: file)) }
        for seed in try BackupFuzzTarget.seeds() {
            let outcome = BackupFuzzTarget.run(seed)
            XCTAssertTrue(
                outcome.hasPrefix("imported 3 added"), "a seed must import into the emptied keychain: \(outcome)")
        }
        var edited = try XCTUnwrap(BackupFuzzTarget.seeds().first { $0.first == 8 })
        edited[1 + 8 + 1] ^= 0x01  // the archive id: the checksum is recomputed, so the wrapped key fails to open
        XCTAssertEqual(
            BackupFuzzTarget.run(edited), "refused: authFailed",
            "checksum fixing must reach the fields behind the checksum")
    }

    func testSecKeyCorpusReplaysAndSeedsSucceed() throws {
        let files = FuzzMain.files(at: Self.corpus.appendingPathComponent("seckey"))
        XCTAssertFalse(files.isEmpty, "no corpus at \(Self.corpus.path)")
        for file in files { SecKeyFuzzTarget.run(try Data(contentsOf: file)) }
        let outcomes = SecKeyFuzzTarget.seeds.map(SecKeyFuzzTarget.run)
        XCTAssertEqual(
            outcomes, ["ok", "ok", "error -67808", "ok", "ok"],
            "the seeds import a public key, seal, verify a bad signature, agree a key and sign with a token key")
    }

    func testMutatedSecKeyInputsRunClean() {
        assertMutationsRunClean(
            seeds: SecKeyFuzzTarget.seeds, generator: 0x5EC4E7, count: 2000, moreOutcomesThan: 3, SecKeyFuzzTarget.run)
    }

    func testMutatedSecItemInputsRunClean() {
        assertMutationsRunClean(
            seeds: SecItemFuzzTarget.seeds, generator: 0x5EC17E, count: 3000, moreOutcomesThan: 5, SecItemFuzzTarget.run
        )
    }
    #endif

    func testMutatedBackupsRunClean() throws {
        assertMutationsRunClean(
            seeds: try BackupFuzzTarget.seeds(), generator: 0xBAC0, count: 1000, moreOutcomesThan: 3,
            BackupFuzzTarget.run)
    }

    /// Runs `count` deterministic mutations of `seeds` (`FUZZ_MUTATIONS` overrides the count)
    /// through a target, and checks they reach more than `minimum` different outcomes.
    private func assertMutationsRunClean<Outcome: Hashable & Comparable>(
        seeds: [Data], generator seed: UInt64, count: Int, moreOutcomesThan minimum: Int, _ target: (Data) -> Outcome,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        var random = SplitMix64(seed: seed)
        var outcomes: Set<Outcome> = []
        for _ in 0..<(ProcessInfo.processInfo.environment["FUZZ_MUTATIONS"].flatMap(Int.init) ?? count) {
            outcomes.insert(target(Mutator.mutate(seeds.randomElement(using: &random)!, using: &random)))
        }
        XCTAssertGreaterThan(
            outcomes.count, minimum, "mutations should reach many different outcomes: \(outcomes.sorted())", file: file,
            line: line)
    }
}

/// Byte-level mutations in the spirit of libFuzzer's: flip, overwrite, insert, delete, duplicate,
/// truncate, with interesting values (0, 0xFF, 0x7F, 0x80).
enum Mutator {
    static func mutate(_ input: Data, using random: inout SplitMix64) -> Data {
        var bytes = Array(input)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !bytes.isEmpty: bytes[position] ^= 1 << UInt8.random(in: 0..<8, using: &random)
            case 1 where !bytes.isEmpty:
                bytes[position] = [0, 0xFF, 0x7F, 0x80, UInt8.random(in: 0...255, using: &random)].randomElement(
                    using: &random)!
            case 2: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
            case 3 where !bytes.isEmpty:
                bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...8, using: &random)))
            case 4 where !bytes.isEmpty:
                bytes.insert(contentsOf: bytes[position..<min(bytes.count, position + 8)], at: position)
            default: bytes = Array(bytes.prefix(position))
            }
        }
        return Data(bytes)
    }
}
