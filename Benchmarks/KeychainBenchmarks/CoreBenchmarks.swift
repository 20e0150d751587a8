import Foundation
import KeychainCore

/// Latency of the engine's operations on a keychain of `items` generic passwords.
enum CoreBenchmarks {
    static func run(items: Int, in directory: URL) throws -> [Measurement] {
        let location = KeychainLocation(directory: directory.appendingPathComponent("core"))
        var open = Measurement("core: open (new keychain)")
        let keychain = try open.time {
            try Keychain(location: location, options: KeychainOptions(defaultAccessGroup: "bench"))
        }
        var add = Measurement("core: add genp (durable commit)")
        var findData = Measurement("core: find one by service+account, data")
        var findAttributes = Measurement("core: find one, attributes")
        var findMissing = Measurement("core: find missing item")
        var update = Measurement("core: update data")
        var delete = Measurement("core: delete one")
        let secret = Data(repeating: 0x5A, count: 64)
        for index in 0..<items {
            try add.time {
                _ = try keychain.add(NewItem(.genericPassword, attributes: SampleKeys.attributes(index), data: secret))
            }
        }
        for index in 0..<items {
            _ = try findData.time {
                try keychain.find(Query(.genericPassword, SampleKeys.attributes(index), limit: .one), returning: .data)
            }
            _ = try findAttributes.time {
                try keychain.find(
                    Query(.genericPassword, SampleKeys.attributes(index), limit: .one), returning: .attributes)
            }
            _ = findMissing.time {
                try? keychain.find(Query(.genericPassword, [.account: .string("missing-\(index)")], limit: .one))
            }
        }
        for index in 0..<items {
            try update.time {
                _ = try keychain.update(
                    Query(.genericPassword, SampleKeys.attributes(index)), with: ItemChanges(data: secret))
            }
        }
        var list = Measurement("core: list all attributes (\(items) items)")
        _ = try list.time { try keychain.find(Query(.genericPassword), returning: .attributes) }
        var reopen = Measurement("core: open (existing keychain)")
        _ = try reopen.time { try Keychain(location: location) }
        for index in 0..<items {
            try delete.time { _ = try keychain.delete(Query(.genericPassword, SampleKeys.attributes(index))) }
        }
        return [open, reopen, add, findData, findAttributes, findMissing, update, delete, list]
    }

    /// Point reads alone, for profiling the read path (`--only reads`): `items` items added in
    /// batches, then `items` finds of one item's data spread over the key space.
    static func reads(items: Int, in directory: URL) throws -> [Measurement] {
        let keychain = try Keychain(
            location: KeychainLocation(directory: directory.appendingPathComponent("reads")),
            options: KeychainOptions(defaultAccessGroup: "bench"))
        let secret = Data(repeating: 0x5A, count: 64)
        for start in stride(from: 0, to: items, by: 5000) {
            try keychain.add(
                contentsOf: (start..<min(start + 5000, items)).map {
                    NewItem(.genericPassword, attributes: SampleKeys.attributes($0), data: secret)
                })
        }
        var find = Measurement("core: find one by service+account, data (\(items) items)")
        for index in SampleKeys.spread(items, over: items) {
            _ = try find.time {
                try keychain.find(Query(.genericPassword, SampleKeys.attributes(index), limit: .one), returning: .data)
            }
        }
        return [find]
    }

    /// The passphrase KDF at its calibrated, production setting: set (includes calibration) and unlock.
    static func passphrase(in directory: URL) throws -> [Measurement] {
        let location = KeychainLocation(directory: directory.appendingPathComponent("passphrase"))
        let keychain = try Keychain(location: location)
        var set = Measurement("core: setPassphrase (calibrated scrypt)")
        try set.time { try keychain.setPassphrase("benchmark passphrase") }
        var unlock = Measurement("core: unlock (\(keychain.passphraseParameters?.description ?? "?"))")
        for _ in 0..<3 {
            let fresh = try Keychain(location: location)
            try unlock.time { try fresh.unlock(passphrase: "benchmark passphrase") }
        }
        return [set, unlock]
    }
}
