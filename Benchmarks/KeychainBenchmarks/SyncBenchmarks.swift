import Foundation
@_spi(Testing) import KeychainCore
import KeychainSync
import PostgresTestSupport

/// Sync through a throw-away PostgreSQL cluster on a Unix socket (same machine, so no network
/// latency): the first sync of a new device with N items, steady-state propagation between two
/// devices, a circle of many devices, and what the server stores per item.
enum SyncBenchmarks {
    static func run(sizes: [Int], devices: Int, samples: Int, json: Bool, in directory: URL) throws {
        let postgres = try PostgresTestServer()
        defer { postgres.stop(mode: "immediate") }
        let options = KeychainOptions(
            passphraseHardening: .fixed(.insecureForTestingOnly), resumesUnlockSession: false, tpm: nil)
        var counter = 0
        func keychain() throws -> Keychain {
            counter += 1
            return try Keychain.create(
                at: KeychainLocation(directory: directory.appendingPathComponent("device-\(counter)")), options: options
            )
        }
        func join(_ founder: KeychainSynchronizer, code: String, _ keychain: Keychain) throws -> (
            KeychainSynchronizer, Double
        ) {
            let joiner = KeychainSynchronizer(keychain: keychain)
            try founder.approve(
                try joiner.requestToJoin(
                    server: postgres.connectionString, circleCode: code, deviceName: "device-\(counter)"))
            let start = Date()
            _ = try joiner.finishJoining()
            return (joiner, Date().timeIntervalSince(start))
        }
        func item(_ index: Int, _ value: String) -> NewItem {
            NewItem(
                .genericPassword,
                attributes: [
                    .service: .string("bench.service.\(index % 97)"), .account: .string("account-\(index)"),
                    .synchronizable: 1
                ],
                data: Data(value.utf8), accessibility: .afterFirstUnlock)
        }
        var results: [String: Any] = [:]

        // 1. Initial sync of a new device, and the founder's syncs with little or nothing new.
        var floor: SyncLatencyBenchmarks.Numbers?
        for size in [100] + sizes {
            let directoryOfSource = directory.appendingPathComponent("device-\(counter + 1)")
            let source = try keychain()
            let fillStart = Date()
            for start in stride(from: 0, to: size, by: 5000) {
                _ = try source.add(
                    contentsOf: (start..<min(size, start + 5000)).map { item($0, "secret-value-\($0)-0123456789") })
            }
            let fillSeconds = Date().timeIntervalSince(fillStart)
            let founder = KeychainSynchronizer(keychain: source)
            let pushStart = Date()
            let code = try founder.createCircle(server: postgres.connectionString, deviceName: "source")
            let pushSeconds = Date().timeIntervalSince(pushStart)
            var nextIndex = size
            let numbers = try SyncLatencyBenchmarks.measure(
                founder: founder, source: source, directory: directoryOfSource, nextIndex: &nextIndex, item: item)
            guard let floorNumbers = floor else {
                floor = numbers
                try postgres.psql(
                    "TRUNCATE keychain_sync_records, keychain_sync_manifests, keychain_sync_roster, keychain_sync_key_wraps, keychain_sync_requests, keychain_sync_acknowledgements, keychain_sync_deleted_values"
                )
                continue
            }
            // A new device's first sync (skipped above 200,000 items: it takes minutes).
            let pullSeconds = size <= 200_000 ? try join(founder, code: code, try keychain()).1 : .nan
            let idleSeconds = numbers.idleWarm / 1000
            let afterWriteSeconds = (numbers.afterWritesWarm[1] ?? .nan) / 1000
            if !json {
                func row(_ name: String, _ value: Double, _ floorValue: Double) {
                    print(
                        String(
                            format: "  %@, %d items: %.1f ms (%.1f × the same sync with 100 items, %.1f ms)", name,
                            size,
                            value, value / floorValue, floorValue))
                }
                print(String(format: "fill, %d items: %.1f s", size, fillSeconds))
                row("idle sync, warm process", numbers.idleWarm, floorNumbers.idleWarm)
                row("idle sync, fresh process", numbers.idleFresh, floorNumbers.idleFresh)
                for writes in SyncLatencyBenchmarks.writeCounts {
                    row(
                        "sync after \(writes) writes, warm process", numbers.afterWritesWarm[writes] ?? .nan,
                        floorNumbers.afterWritesWarm[writes] ?? .nan)
                    row(
                        "sync after \(writes) writes, fresh process", numbers.afterWritesFresh[writes] ?? .nan,
                        floorNumbers.afterWritesFresh[writes] ?? .nan)
                }
            }
            results["latency-\(size)"] = [
                "fillSeconds": fillSeconds, "idleWarmMilliseconds": numbers.idleWarm,
                "idleFreshMilliseconds": numbers.idleFresh,
                "afterWritesWarmMilliseconds": numbers.afterWritesWarm.map { ["writes": $0.key, "ms": $0.value] },
                "afterWritesFreshMilliseconds": numbers.afterWritesFresh.map { ["writes": $0.key, "ms": $0.value] }
            ]
            let circle = try founder.status()
            let bytes =
                Int(
                    try postgres.psql("SELECT coalesce(sum(pg_column_size(r.*)), 0) FROM keychain_sync_records r")
                        .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            let rows =
                Int(
                    try postgres.psql("SELECT count(*) FROM keychain_sync_records").trimmingCharacters(
                        in: .whitespacesAndNewlines)) ?? 1
            results["initial-\(size)"] = [
                "items": size, "firstPushSeconds": pushSeconds, "firstPushItemsPerSecond": Double(size) / pushSeconds,
                "newDeviceSeconds": pullSeconds, "newDeviceItemsPerSecond": Double(size) / pullSeconds,
                "counter": circle.verifiedCounter, "serverBytesPerRecord": bytes / max(rows, 1),
                "idleSyncMilliseconds": idleSeconds * 1000, "syncAfterOneWriteMilliseconds": afterWriteSeconds * 1000
            ]
            if !json {
                print(
                    String(
                        format:
                            "initial sync, %d items: first push %.1f s (%.0f items/s); new device %.1f s (%.0f items/s); %d bytes per record on the server; a sync with nothing new %.0f ms; after one local write %.0f ms",
                        size, pushSeconds, Double(size) / pushSeconds, pullSeconds, Double(size) / pullSeconds,
                        bytes / max(rows, 1), idleSeconds * 1000,
                        afterWriteSeconds * 1000))
            }
            try postgres.psql(
                "TRUNCATE keychain_sync_records, keychain_sync_manifests, keychain_sync_roster, keychain_sync_key_wraps, keychain_sync_requests, keychain_sync_acknowledgements, keychain_sync_deleted_values"
            )
        }
        let tableBytes = try postgres.psql("SELECT pg_size_pretty(pg_total_relation_size('keychain_sync_records'))")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        results["recordsTableAfterRuns"] = tableBytes

        // 2. Steady-state propagation between two devices with 100 items each: the writer adds and
        //    syncs, the reader's background sync is woken by NOTIFY; time until the reader has it.
        let writer = try keychain()
        let reader = try keychain()
        _ = try writer.add(contentsOf: (0..<100).map { item($0, "v") })
        let writing = KeychainSynchronizer(keychain: writer)
        let code = try writing.createCircle(server: postgres.connectionString, deviceName: "writer")
        let (reading, _) = try join(writing, code: code, reader)
        let background = reading.startInBackground(pollInterval: .seconds(3600))
        Thread.sleep(forTimeInterval: 0.5)
        var latencies: [Double] = []
        for sample in 0..<samples {
            let start = Date()
            try writer.add(item(1_000_000 + sample, "propagated-\(sample)"))
            try writing.syncNow()
            let query = Query(
                .genericPassword,
                [
                    .service: .string("bench.service.\((1_000_000 + sample) % 97)"),
                    .account: .string("account-\(1_000_000 + sample)")
                ],
                synchronizable: .yes)
            while try reader.findFirst(query) == nil {
                if Date().timeIntervalSince(start) > 30 {
                    throw SyncError(.serverUnreachable, "a change did not propagate in 30 s")
                }
                usleep(500)
            }
            latencies.append(Date().timeIntervalSince(start) * 1000)
        }
        background.stop()
        latencies.sort()
        let p50 = latencies[latencies.count / 2]
        let p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
        results["propagation"] = ["samples": samples, "p50Milliseconds": p50, "p99Milliseconds": p99]
        if !json {
            print(
                String(
                    format:
                        "propagation writer → reader (add, push, NOTIFY, pull, apply), %d samples: p50 %.1f ms, p99 %.1f ms",
                    samples, p50, p99))
        }

        // 3. Many devices on one circle: joining, then one change reaching all of them.
        let founderKeychain = try keychain()
        _ = try founderKeychain.add(contentsOf: (0..<100).map { item($0, "v") })
        let founder = KeychainSynchronizer(keychain: founderKeychain)
        let circleCode = try founder.createCircle(server: postgres.connectionString, deviceName: "founder")
        var members: [KeychainSynchronizer] = []
        var joinSeconds = 0.0
        let joinStart = Date()
        for _ in 1..<devices {
            let (member, _) = try join(founder, code: circleCode, try keychain())
            members.append(member)
        }
        joinSeconds = Date().timeIntervalSince(joinStart)
        try founderKeychain.add(item(2_000_000, "to everyone"))
        try founder.syncNow()
        let fanStart = Date()
        for member in members { try member.syncNow() }
        let fanSeconds = Date().timeIntervalSince(fanStart)
        results["circle"] = [
            "devices": devices, "joinSecondsEach": joinSeconds / Double(devices - 1),
            "syncMillisecondsEach": fanSeconds * 1000 / Double(devices - 1)
        ]
        if !json {
            print(
                String(
                    format:
                        "%d devices on one circle (100 items): joining %.0f ms each; one change pulled by all in %.2f s (%.1f ms per device)",
                    devices, joinSeconds * 1000 / Double(devices - 1), fanSeconds,
                    fanSeconds * 1000 / Double(devices - 1)))
        }
        if json {
            let data = try JSONSerialization.data(withJSONObject: results, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
