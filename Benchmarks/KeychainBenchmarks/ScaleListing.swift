import Foundation
import KeychainCore
#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import KeychainServices
#endif

/// Listing every item with its attributes at one size N (issue 39): `Keychain.find` with limit
/// all and `SecItemCopyMatching` with `kSecMatchLimitAll` and `kSecReturnAttributes`, beside
/// the raw SQLite floor listing the same N rows (``RawSQLiteFloor/listAll()``), in alternating
/// rounds of one run.
enum ScaleListing {
    struct Result {
        var find: Measurement
        /// Nil when the SecItem API is Apple's (not measured over this engine).
        var secItem: Measurement?
        var raw: Measurement
        var size: Int

        var measurements: [Measurement] { [find] + (secItem.map { [$0] } ?? []) + [raw] }
        /// Microseconds per listed item, by p50.
        var findPerItem: Double { find.median / Double(size) }
        var secItemPerItem: Double? { secItem.map { $0.median / Double(size) } }
        var rawPerItem: Double { raw.median / Double(size) }
    }

    /// Rounds at each size: enough for a median, few enough that 100,000 items stay quick.
    static func rounds(size: Int) -> Int { max(3, min(20, 100_000 / max(size, 1))) }

    /// Lists the keychain's `size` generic passwords (the SecItem environment must use `keychain`
    /// when SecItem is measured) and the floor's in alternating rounds; every listing must return
    /// all `size` items.
    static func run(keychain: Keychain, size: Int, floor: RawSQLiteFloor, measuresSecItem: Bool) throws -> Result {
        var find = Measurement("N=\(size): list all with attributes, Keychain.find")
        var secItem = Measurement("N=\(size): list all with attributes, SecItemCopyMatching")
        var raw = Measurement("floor: raw SQLite listing of the same \(size) rows")
        let query = Query(.genericPassword, limit: .all)
        for _ in 0..<rounds(size: size) {
            let rows = try raw.time { try floor.listAll() }
            guard rows.count == size else { throw BenchmarkFailure("the raw listing returned \(rows.count) rows") }
            let found = try find.time { try keychain.find(query, returning: .attributes) }
            guard found.count == size else { throw BenchmarkFailure("find listed \(found.count) items, not \(size)") }
            if measuresSecItem { try listThroughSecItem(size: size, into: &secItem) }
        }
        return Result(find: find, secItem: measuresSecItem ? secItem : nil, raw: raw, size: size)
    }

    private static func listThroughSecItem(size: Int, into measurement: inout Measurement) throws {
        #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true
        ]
        var result: CFTypeRef?
        let status = measurement.time { SecItemCopyMatching(query as CFDictionary, &result) }
        guard status == errSecSuccess, let listed = result as? NSArray, listed.count == size else {
            throw BenchmarkFailure("SecItemCopyMatching listed \((result as? NSArray)?.count ?? 0) items (\(status))")
        }
        #endif
    }
}
