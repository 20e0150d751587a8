import Foundation

/// Runs ``ScaleBenchmarks`` for each size in ascending order and prints one Markdown report (or
/// JSON): every measurement, then the summary of ratios to the raw SQLite floor.
enum ScaleReport {
    static func run(sizes: [Int], samples: Int, json: Bool, in directory: URL) throws {
        var results: [ScaleBenchmarks.Result] = []
        for size in sizes.sorted() {
            FileHandle.standardError.write(Data("N=\(size)…\n".utf8))
            results.append(try ScaleBenchmarks.run(size: size, samples: samples, in: directory))
        }
        let crypto = try FloorBenchmarks.aesGCM(samples: samples)
        if json {
            let object: [String: Any] = [
                "samples": samples,
                "sizes": results.map { result -> [String: Any] in
                    [
                        "size": result.size, "addOverFloor": result.addRatio, "readOverFloor": result.readRatio,
                        "updateOverFloor": result.updateRatio, "deleteOverFloor": result.deleteRatio,
                        "secItemReadOverFloor": result.secItemReadRatio as Any? ?? NSNull(),
                        "batchItemsPerSecond": result.batchItemsPerSecond, "diskBytes": result.diskBytes,
                        "peakMemoryBytes": result.peakMemoryBytes, "results": result.measurements.map(\.json),
                        "listMicrosecondsPerItem": [
                            "find": result.listing.findPerItem,
                            "secItemCopyMatching": result.listing.secItemPerItem.map { $0 as Any } ?? NSNull(),
                            "rawSQLite": result.listing.rawPerItem
                        ] as [String: Any]
                    ]
                },
                "crypto": crypto.map(\.json)
            ]
            print(
                String(
                    decoding: try JSONSerialization.data(
                        withJSONObject: object, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
            return
        }
        print(
            "SecureStorage scaling run: sizes \(sizes.map(String.init).joined(separator: ", ")), \(samples) samples per operation, \(ProcessInfo.processInfo.activeProcessorCount) cores\n"
        )
        print("| operation | n | p50 µs | p90 µs | p99 µs | ops/s |\n|---|---|---|---|---|---|")
        for result in results { result.measurements.forEach { print($0.markdownRow) } }
        crypto.forEach { print($0.markdownRow) }
        print(
            "\n| N | add / raw insert | find / raw read | SecItemCopyMatching / raw read | update / raw update | delete / raw delete | batch add items/s | on disk | peak memory |\n|---|---|---|---|---|---|---|---|---|"
        )
        for result in results {
            let secItem = result.secItemReadRatio.map { String(format: "%.2f×", $0) } ?? "–"
            print(
                String(format: "| %d | %.2f× | %.2f× | ", result.size, result.addRatio, result.readRatio) + secItem
                    + String(
                        format: " | %.2f× | %.2f× | %.0f | %.1f MiB | %.0f MiB |", result.updateRatio,
                        result.deleteRatio,
                        result.batchItemsPerSecond,
                        Double(result.diskBytes) / 1_048_576, Double(result.peakMemoryBytes) / 1_048_576))
        }
        printListing(results)
        print(
            "\n(Ratios are p50 over p50 in this run; the raw floor is SQLite's C API with prepared statements, no encryption.)"
        )
        if let first = results.first, let last = results.last, first.size != last.size {
            print(
                String(
                    format: "Listing per item at N=%d is %.2f× its cost at N=%d.", last.size,
                    last.listing.findPerItem / max(first.listing.findPerItem, 1e-9), first.size))
        }
        if let first = results.first, let last = results.last, first.size != last.size,
            let small = first.measurements.first(where: { $0.name.hasSuffix("find one by service+account, data") }),
            let large = last.measurements.first(where: { $0.name.hasSuffix("find one by service+account, data") })
        {
            print(
                String(
                    format: "\nPoint read p50 at N=%d is %.2f× its p50 at N=%d.", last.size,
                    large.median / max(small.median, 1e-9), first.size))
        }
    }

    /// Listing every item with its attributes: µs per item (p50 over N) of ours and of the raw
    /// SQLite listing of the same rows, and their ratio.
    private static func printListing(_ results: [ScaleBenchmarks.Result]) {
        print(
            "\n| N | list all with attributes: `Keychain.find` µs/item | `SecItemCopyMatching` µs/item | raw SQLite listing µs/item | find / raw | SecItem / raw |\n|---|---|---|---|---|---|"
        )
        for result in results {
            let listing = result.listing
            let raw = max(listing.rawPerItem, 1e-9)
            let secItem = listing.secItemPerItem.map { String(format: "%.2f", $0) } ?? "–"
            let secItemRatio = listing.secItemPerItem.map { String(format: "%.1f×", $0 / raw) } ?? "–"
            print(
                String(format: "| %d | %.2f | ", result.size, listing.findPerItem) + secItem
                    + String(format: " | %.3f | %.1f× | ", listing.rawPerItem, listing.findPerItem / raw)
                    + secItemRatio + " |")
        }
    }
}
