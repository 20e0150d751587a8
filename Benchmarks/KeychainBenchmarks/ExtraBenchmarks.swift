#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// The SecItem API over the portable engine: on Apple platforms only in a SECURE_STORAGE_FORCE_PORTABLE build.
import Foundation
import KeychainCore
import KeychainServices
import SecureStorage

/// The layers above the engine: the SecItem API and the SecureStorage facade, so their overhead
/// over ``CoreBenchmarks`` shows.
enum ExtraBenchmarks {
    static func run(items: Int, in directory: URL) throws -> [Measurement] {
        let keychain = try Keychain(location: KeychainLocation(directory: directory.appendingPathComponent("upper")))
        SecItemEnvironment.useKeychain(keychain)
        SecItemEnvironment.applicationIdentity = ApplicationIdentity(applicationIdentifier: "BENCH.app")
        defer { SecItemEnvironment.reset() }

        var add = Measurement("SecItemAdd genp")
        var copy = Measurement("SecItemCopyMatching, return data")
        var update = Measurement("SecItemUpdate data")
        var delete = Measurement("SecItemDelete")
        let secret = Data(repeating: 0x5A, count: 64)
        func query(_ index: Int) -> [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench",
                kSecAttrAccount as String: "account-\(index)"
            ]
        }
        for index in 0..<items {
            try expect(
                add.time {
                    SecItemAdd(query(index).merging([kSecValueData as String: secret]) { $1 } as CFDictionary, nil)
                })
        }
        for index in 0..<items {
            var result: CFTypeRef?
            try expect(
                copy.time {
                    SecItemCopyMatching(
                        query(index).merging([kSecReturnData as String: true]) { $1 } as CFDictionary, &result)
                })
        }
        for index in 0..<items {
            try expect(
                update.time {
                    SecItemUpdate(query(index) as CFDictionary, [kSecValueData as String: secret] as CFDictionary)
                })
        }
        for index in 0..<items {
            try expect(delete.time { SecItemDelete(query(index) as CFDictionary) })
        }

        let storage = SecureStorage(service: "bench.facade", defaultSensitivity: .private)
        var store = Measurement("SecureStorage.set (String, upsert)")
        var read = Measurement("SecureStorage.string(for:)")
        for index in 0..<items { try store.time { try storage.set("token-\(index)", for: "k\(index)") } }
        for index in 0..<items { _ = try read.time { try storage.string(for: "k\(index)") } }

        let volatile = VolatileSecureStorage()
        var volatileStore = Measurement("VolatileSecureStorage.set (String)")
        var volatileRead = Measurement("VolatileSecureStorage.string(for:)")
        for index in 0..<items { try volatileStore.time { try volatile.set("token-\(index)", for: "k\(index)") } }
        for index in 0..<items { _ = try volatileRead.time { try volatile.string(for: "k\(index)") } }
        return [add, copy, update, delete, store, read, volatileStore, volatileRead]
    }

    private struct UnexpectedStatus: Error { let status: OSStatus }

    private static func expect(_ status: OSStatus) throws {
        if status != errSecSuccess { throw UnexpectedStatus(status: status) }
    }
}
#endif
