import Foundation
import KeychainCore

/// Whole-keychain operations the `keychain` tool runs: verify, export and import of `items` items.
/// Backups use the scrypt floor (N=2^17, r=8, p=1), so the KDF's share is the same in every run.
enum MaintenanceBenchmarks {
    static func run(items: Int, in directory: URL) throws -> [Measurement] {
        let options = KeychainOptions(passphraseHardening: .fixed(.floor), defaultAccessGroup: "bench")
        let source = try Keychain(
            location: KeychainLocation(directory: directory.appendingPathComponent("maintenance-source")),
            options: options)
        let secret = Data(repeating: 0x5A, count: 64)
        for index in 0..<items {
            try source.add(
                NewItem(
                    .genericPassword, attributes: SampleKeys.attributes(index),
                    data: secret, accessibility: .afterFirstUnlock))
        }
        var verify = Measurement("maintenance: verify \(items) items")
        _ = try verify.time { try source.verify() }
        let file = directory.appendingPathComponent("bench.backup")
        var export = Measurement("maintenance: export \(items) items (incl. KDF)")
        _ = try export.time { try source.exportBackup(to: file, passphrase: "benchmark") }
        let target = try Keychain(
            location: KeychainLocation(directory: directory.appendingPathComponent("maintenance-target")),
            options: options)
        var importing = Measurement("maintenance: import \(items) items (incl. KDF)")
        _ = try importing.time { try target.importBackup(from: file, passphrase: "benchmark") }
        let empty = try Keychain(
            location: KeychainLocation(directory: directory.appendingPathComponent("maintenance-empty")),
            options: options)
        var kdf = Measurement("maintenance: export 0 items (the KDF alone)")
        _ = try kdf.time {
            try empty.exportBackup(to: directory.appendingPathComponent("empty.backup"), passphrase: "benchmark")
        }
        return [verify, export, importing, kdf]
    }
}
