import CCallgrind
import Crypto
import Foundation
import GRDB
import KeychainCore
#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import KeychainServices
#endif

/// `--instructions OP[,OP…]`: sets up a keychain of `items` generic passwords and the floors
/// beside it, warms each operation up, then runs `calls` calls of each OP inside one callgrind
/// region (`callgrind_region_start`/`stop`), so that `valgrind --tool=callgrind
/// --instr-atstart=no` counts exactly those calls. `scripts/instructions` runs it and divides.
///
/// Without valgrind the same run just times the region, which is what `strace -c` and `perf`
/// runs of one operation use.
enum InstructionBenchmarks {
    /// The operations, by the name `--instructions` takes.
    static let operations: [String] = [
        "find", "secitem-find", "list", "secitem-list", "raw-list", "add", "batch", "update", "delete", "raw-read",
        "raw-insert", "raw-update", "raw-delete", "grdb-read", "hmac", "gcm-open", "kw-unwrap"
    ]

    /// How many whole listings a `list` operation of `calls` calls runs: one per 100 calls (at
    /// least one), each of every item; `count` is then the number of items listed, and what
    /// `scripts/instructions` divides by (so list operations are counted per item).
    static func listings(calls: Int) -> Int { max(1, calls / 100) }

    static func run(operations requested: [String], items: Int, calls: Int, in directory: URL) throws {
        let unknown = requested.filter { !operations.contains($0) }
        guard unknown.isEmpty else {
            throw BenchmarkFailure(
                "unknown --instructions operation \(unknown.joined(separator: ", ")); known: \(operations.joined(separator: ","))"
            )
        }
        let context = try Context(items: items, in: directory)
        for operation in requested {
            let body = try context.body(for: operation, calls: calls)
            try body.warmUp()
            let clock = ContinuousClock()
            let start = clock.now
            callgrind_region_start()
            try body.measured()
            callgrind_region_stop(operation)
            let elapsed = (clock.now - start).microseconds
            print("\(operation) calls=\(body.count) µs/call=\(String(format: "%.2f", elapsed / Double(body.count)))")
        }
    }

    /// One operation: `warmUp` runs it on other rows first (caches, statements, lazy state),
    /// `measured` runs `count` calls.
    struct Body {
        var count: Int
        var warmUp: () throws -> Void
        var measured: () throws -> Void
    }

    /// The keychain and floors every operation runs against.
    final class Context {
        let keychain: Keychain
        let items: Int
        let raw: RawSQLiteFloor
        let grdb: DatabasePool
        let secret = Data(repeating: 0x5A, count: 64)
        private var added = 0

        init(items: Int, in directory: URL) throws {
            self.items = items
            let secret = self.secret
            keychain = try Keychain(
                location: KeychainLocation(directory: directory.appendingPathComponent("instructions")),
                options: KeychainOptions(passphraseHardening: .fixed(.floor), defaultAccessGroup: "bench"))
            for start in stride(from: 0, to: items, by: 5000) {
                try keychain.add(
                    contentsOf: (start..<min(items, start + 5000)).map {
                        NewItem(.genericPassword, attributes: SampleKeys.attributes($0), data: secret)
                    })
            }
            raw = try RawSQLiteFloor(
                path: directory.appendingPathComponent("instructions-raw.sqlite").path, size: items)
            grdb = try DatabasePool(path: directory.appendingPathComponent("instructions-grdb.sqlite").path)
            try grdb.write { db in
                try db.execute(
                    sql:
                        "CREATE TABLE items (id INTEGER PRIMARY KEY, service BLOB NOT NULL, account BLOB NOT NULL, data BLOB NOT NULL, UNIQUE (service, account))"
                )
                let insert = try db.cachedStatement(sql: "INSERT INTO items (service, account, data) VALUES (?, ?, ?)")
                for index in 0..<items {
                    try insert.execute(arguments: [
                        Data(SampleKeys.service(index).utf8), Data(SampleKeys.account(index).utf8), secret
                    ])
                }
            }
            #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
            SecItemEnvironment.useKeychain(keychain)
            SecItemEnvironment.applicationIdentity = ApplicationIdentity(applicationIdentifier: "bench")
            #endif
        }

        /// Fresh accounts for adds, never used before in this run.
        private func newAccounts(_ count: Int) -> [String] {
            defer { added += count }
            return (added..<(added + count)).map { "new-\($0)" }
        }

        func body(for operation: String, calls: Int) throws -> Body {
            let warm = min(100, calls)
            let stored = SampleKeys.spread(calls + warm, over: items)
            let (warmRows, rows) = (Array(stored.prefix(warm)), Array(stored.dropFirst(warm)))
            switch operation {
            case "find":
                func queries(_ rows: [Int]) -> [Query] {
                    rows.map { Query(.genericPassword, SampleKeys.attributes($0)) }
                }
                let (warmQueries, measuredQueries) = (queries(warmRows), queries(rows))
                let run: ([Query]) throws -> Void = { queries in
                    for query in queries {
                        guard try self.keychain.findFirst(query, returning: .data)?.data != nil else {
                            throw BenchmarkFailure("find lost an item")
                        }
                    }
                }
                return Body(count: calls, warmUp: { try run(warmQueries) }, measured: { try run(measuredQueries) })
            case "secitem-find":
                #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
                func queries(_ rows: [Int]) -> [CFDictionary] {
                    rows.map {
                        [
                            kSecClass as String: kSecClassGenericPassword,
                            kSecAttrService as String: SampleKeys.service($0),
                            kSecAttrAccount as String: SampleKeys.account($0), kSecReturnData as String: true
                        ] as CFDictionary
                    }
                }
                let (warmQueries, measuredQueries) = (queries(warmRows), queries(rows))
                let run: ([CFDictionary]) throws -> Void = { queries in
                    for query in queries {
                        var result: CFTypeRef?
                        let status = SecItemCopyMatching(query, &result)
                        guard status == errSecSuccess else {
                            throw BenchmarkFailure("SecItemCopyMatching answered \(status)")
                        }
                    }
                }
                return Body(count: calls, warmUp: { try run(warmQueries) }, measured: { try run(measuredQueries) })
                #else
                throw BenchmarkFailure(
                    "secitem-find measures the SecItem API over this engine: on Apple platforms build with SECURE_STORAGE_FORCE_PORTABLE=1"
                )
                #endif
            case "list", "secitem-list", "raw-list":
                return try listing(operation, calls: calls)
            case "add":
                func newItems(_ count: Int) -> [NewItem] {
                    newAccounts(count).map {
                        NewItem(.genericPassword, attributes: [.service: "added", .account: .string($0)], data: secret)
                    }
                }
                let (warmItems, measuredItems) = (newItems(warm), newItems(calls))
                let run: ([NewItem]) throws -> Void = { items in for item in items { _ = try self.keychain.add(item) } }
                return Body(count: calls, warmUp: { try run(warmItems) }, measured: { try run(measuredItems) })
            case "batch":
                func newItems(_ count: Int) -> [NewItem] {
                    newAccounts(count).map {
                        NewItem(.genericPassword, attributes: [.service: "batch", .account: .string($0)], data: secret)
                    }
                }
                let (warmItems, measuredItems) = (newItems(warm), newItems(calls))
                return Body(
                    count: calls, warmUp: { try self.keychain.add(contentsOf: warmItems) },
                    measured: { try self.keychain.add(contentsOf: measuredItems) })
            case "update":
                func queries(_ rows: [Int]) -> [Query] {
                    rows.map { Query(.genericPassword, SampleKeys.attributes($0)) }
                }
                let (warmQueries, measuredQueries) = (queries(warmRows), queries(rows))
                let changes = ItemChanges(data: secret)
                let run: ([Query]) throws -> Void = { queries in
                    for query in queries { _ = try self.keychain.update(query, with: changes) }
                }
                return Body(count: calls, warmUp: { try run(warmQueries) }, measured: { try run(measuredQueries) })
            case "delete":
                let accounts = newAccounts(warm + calls)
                try keychain.add(
                    contentsOf: accounts.map {
                        NewItem(
                            .genericPassword, attributes: [.service: "deleted", .account: .string($0)], data: secret)
                    })
                func queries(_ accounts: ArraySlice<String>) -> [Query] {
                    accounts.map { Query(.genericPassword, [.service: "deleted", .account: .string($0)]) }
                }
                let (warmQueries, measuredQueries) = (queries(accounts.prefix(warm)), queries(accounts.dropFirst(warm)))
                let run: ([Query]) throws -> Void = { queries in
                    for query in queries { _ = try self.keychain.delete(query) }
                }
                return Body(count: calls, warmUp: { try run(warmQueries) }, measured: { try run(measuredQueries) })
            case "raw-read":
                func keys(_ rows: [Int]) -> [(Data, Data)] {
                    rows.map { (Data(SampleKeys.service($0).utf8), Data(SampleKeys.account($0).utf8)) }
                }
                let (warmKeys, measuredKeys) = (keys(warmRows), keys(rows))
                let run: ([(Data, Data)]) throws -> Void = { keys in
                    for (service, account) in keys {
                        guard try self.raw.read(service: service, account: account) != nil else {
                            throw BenchmarkFailure("raw read lost a row")
                        }
                    }
                }
                return Body(count: calls, warmUp: { try run(warmKeys) }, measured: { try run(measuredKeys) })
            case "raw-insert":
                func keys(_ count: Int) -> [Data] { newAccounts(count).map { Data($0.utf8) } }
                let (warmKeys, measuredKeys) = (keys(warm), keys(calls))
                let service = Data("added".utf8)
                let run: ([Data]) throws -> Void = { accounts in
                    for account in accounts {
                        try self.raw.insert(service: service, account: account, data: self.secret)
                    }
                }
                return Body(count: calls, warmUp: { try run(warmKeys) }, measured: { try run(measuredKeys) })
            case "raw-update":
                func keys(_ rows: [Int]) -> [(Data, Data)] {
                    rows.map { (Data(SampleKeys.service($0).utf8), Data(SampleKeys.account($0).utf8)) }
                }
                let (warmKeys, measuredKeys) = (keys(warmRows), keys(rows))
                // New bytes on every call: SQLite writes nothing for a row whose bytes stay the same.
                var round: UInt8 = 0
                let run: ([(Data, Data)]) throws -> Void = { keys in
                    round &+= 1
                    let data = Data(repeating: round, count: self.secret.count)
                    for (service, account) in keys {
                        try self.raw.update(service: service, account: account, data: data)
                    }
                }
                return Body(count: calls, warmUp: { try run(warmKeys) }, measured: { try run(measuredKeys) })
            case "raw-delete":
                let accounts = newAccounts(warm + calls).map { Data($0.utf8) }
                let service = Data("deleted".utf8)
                try raw.insertAll(service: service, accounts: accounts, data: secret)
                let run: (ArraySlice<Data>) throws -> Void = { accounts in
                    for account in accounts { try self.raw.delete(service: service, account: account) }
                }
                return Body(
                    count: calls, warmUp: { try run(accounts.prefix(warm)) },
                    measured: { try run(accounts.dropFirst(warm)) })
            case "grdb-read":
                func keys(_ rows: [Int]) -> [StatementArguments] {
                    rows.map { [Data(SampleKeys.service($0).utf8), Data(SampleKeys.account($0).utf8)] }
                }
                let (warmKeys, measuredKeys) = (keys(warmRows), keys(rows))
                let run: ([StatementArguments]) throws -> Void = { keys in
                    for arguments in keys {
                        let found = try self.grdb.read { db in
                            try Data.fetchOne(
                                db.cachedStatement(sql: "SELECT data FROM items WHERE service = ? AND account = ?"),
                                arguments: arguments)
                        }
                        guard found != nil else { throw BenchmarkFailure("GRDB read lost a row") }
                    }
                }
                return Body(count: calls, warmUp: { try run(warmKeys) }, measured: { try run(measuredKeys) })
            case "hmac":
                // A blind index: HMAC-SHA256 of a short value under a key whose schedule is done once.
                let keyed = HMAC<SHA256>(key: SymmetricKey(size: .bits256))
                let values = rows.map { Data(SampleKeys.account($0).utf8) }
                let run: ([Data]) -> Void = { values in
                    for value in values {
                        var hmac = keyed
                        hmac.update(data: value)
                        _ = hmac.finalize()
                    }
                }
                return Body(count: calls, warmUp: { run(Array(values.prefix(warm))) }, measured: { run(values) })
            case "gcm-open":
                let key = SymmetricKey(size: .bits256)
                let box = try AES.GCM.seal(secret, using: key)
                let run: (Int) throws -> Void = { count in for _ in 0..<count { _ = try AES.GCM.open(box, using: key) }
                }
                return Body(count: calls, warmUp: { try run(warm) }, measured: { try run(calls) })
            case "kw-unwrap":
                let key = SymmetricKey(size: .bits256)
                let wrapped = try AES.KeyWrap.wrap(SymmetricKey(size: .bits256), using: key)
                let run: (Int) throws -> Void = { count in
                    for _ in 0..<count { _ = try AES.KeyWrap.unwrap(wrapped, using: key) }
                }
                return Body(count: calls, warmUp: { try run(warm) }, measured: { try run(calls) })
            default:
                throw BenchmarkFailure("unknown operation \(operation)")
            }
        }

        /// Whole listings of every item with its attributes (``listings(calls:)`` of them),
        /// counted per item: `Keychain.find` with limit all, `SecItemCopyMatching` with
        /// `kSecMatchLimitAll`, or the raw SQLite floor's listing of the same rows.
        private func listing(_ operation: String, calls: Int) throws -> Body {
            let listings = InstructionBenchmarks.listings(calls: calls)
            let listOnce: () throws -> Int
            switch operation {
            case "list":
                let query = Query(.genericPassword, limit: .all)
                listOnce = { try self.keychain.find(query, returning: .attributes).count }
            case "secitem-list":
                #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
                let query =
                    [
                        kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
                        kSecReturnAttributes as String: true
                    ] as CFDictionary
                listOnce = {
                    var result: CFTypeRef?
                    let status = SecItemCopyMatching(query, &result)
                    guard status == errSecSuccess, let listed = result as? NSArray else {
                        throw BenchmarkFailure("SecItemCopyMatching answered \(status)")
                    }
                    return listed.count
                }
                #else
                throw BenchmarkFailure(
                    "secitem-list measures the SecItem API over this engine: on Apple platforms build with SECURE_STORAGE_FORCE_PORTABLE=1"
                )
                #endif
            default:
                listOnce = { try self.raw.listAll().count }
            }
            // Every listing must return what the first one did (whatever earlier operations added).
            let perListing = try listOnce()
            guard perListing >= items else { throw BenchmarkFailure("\(operation) listed \(perListing) of \(items)") }
            let listAll = {
                guard try listOnce() == perListing else { throw BenchmarkFailure("\(operation) lost items") }
            }
            return Body(
                count: listings * perListing, warmUp: listAll, measured: { for _ in 0..<listings { try listAll() } })
        }
    }
}
