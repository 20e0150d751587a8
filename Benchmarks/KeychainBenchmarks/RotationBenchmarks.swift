import Crypto
import Foundation
@_spi(Testing) import KeychainCore

/// What format 4 added to the costly paths: a passphrase change now rotates the class keys and
/// rewraps every item's two keys (`--only rotation --items N`), and every row a read selects is
/// checked against its decrypted attributes (two blind-index HMACs for a service + account
/// query, timed here beside a point read of the same keychain).
///
///   swift run --package-path Benchmarks -c release KeychainBenchmarks --only rotation --items 1000
///   swift run --package-path Benchmarks -c release KeychainBenchmarks --only rotation --items 100000
enum RotationBenchmarks {
    static func run(items: Int, in directory: URL) throws -> [Measurement] {
        // Cheap scrypt, so the rows' rewrapping is what is measured; the KDF alone is timed too.
        let options = KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly), defaultAccessGroup: "bench")
        let empty = try Keychain.create(
            at: KeychainLocation(directory: directory.appendingPathComponent("rotation-empty")), passphrase: "p0",
            options: options)
        var kdf = Measurement("rotation: change passphrase, 0 items")
        for step in 0..<5 { try kdf.time { try empty.changePassphrase(from: "p\(step)", to: "p\(step + 1)") } }

        let keychain = try Keychain.create(
            at: KeychainLocation(directory: directory.appendingPathComponent("rotation")), passphrase: "p0",
            options: options)
        let secret = Data(repeating: 0x5A, count: 64)
        for start in stride(from: 0, to: items, by: 5000) {
            try keychain.add(
                contentsOf: (start..<min(items, start + 5000)).map { index in
                    NewItem(
                        .genericPassword, attributes: SampleKeys.attributes(index), data: secret,
                        accessibility: .afterFirstUnlock)
                })
        }
        var rotation = Measurement("rotation: change passphrase, \(items) items")
        for step in 0..<3 { try rotation.time { try keychain.changePassphrase(from: "p\(step)", to: "p\(step + 1)") } }

        var read = Measurement("reads: point read (service + account)")
        for index in SampleKeys.spread(min(items, 2000), over: items) {
            _ = try read.time {
                try keychain.find(Query(.genericPassword, SampleKeys.attributes(index), limit: .one), returning: .data)
            }
        }
        // The match check's added work on that read: the blind index of each filtered attribute,
        // recomputed from the decrypted value (HMAC-SHA256 from a pre-keyed state, ~40-byte input).
        var check = Measurement("reads: match check (2 blind-index HMACs)")
        let keyed = HMAC<SHA256>(key: SymmetricKey(size: .bits256))
        var sink: UInt8 = 0
        for index in 0..<20_000 {
            check.time {
                for part in [SampleKeys.service(index), SampleKeys.account(index)] {
                    var hmac = keyed
                    hmac.update(data: Array("attr".utf8) + Array(part.utf8) + [0, 0, 0, 0, 0, 0, 0, 0])
                    sink ^= hmac.finalize().withUnsafeBytes { $0[0] }
                }
            }
        }
        if sink == 0xFF { print("") }  // keeps the work observable
        return [kdf, rotation, read, check]
    }
}
