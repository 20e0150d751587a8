import Foundation

/// Latency samples of one operation.
struct Measurement {
    let name: String
    private(set) var samples: [Duration] = []

    init(_ name: String) { self.name = name }

    /// A measurement taken elsewhere (another process), from its samples.
    init(_ name: String, samples: [Duration]) {
        self.name = name
        self.samples = samples
    }

    /// Times `body` once and records it.
    mutating func time<T>(_ body: () throws -> T) rethrows -> T {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try body()
        samples.append(clock.now - start)
        return result
    }

    private func percentile(_ fraction: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
        return sorted[index].microseconds
    }

    var median: Double { percentile(0.5) }
    var p90: Double { percentile(0.9) }
    var p99: Double { percentile(0.99) }
    /// The sum of all samples, in seconds.
    var total: Double { samples.reduce(Duration.zero, +).microseconds / 1_000_000 }
    var operationsPerSecond: Double {
        let total = samples.reduce(Duration.zero, +).microseconds
        return total > 0 ? Double(samples.count) / total * 1_000_000 : 0
    }

    /// A Markdown table row: operation, n, p50, p90, p99 (µs), ops/s.
    var markdownRow: String {
        "| \(name) | \(samples.count) | "
            + [median, p90, p99].map { String(format: "%.1f", $0) }.joined(separator: " | ")
            + String(format: " | %.0f |", operationsPerSecond)
    }

    var row: String {
        name.padding(toLength: 44, withPad: " ", startingAt: 0)
            + String(format: "%8d %12.1f %12.1f %12.1f %12.0f", samples.count, median, p90, p99, operationsPerSecond)
    }

    var json: [String: Any] {
        [
            "name": name, "count": samples.count, "medianMicroseconds": median, "p90Microseconds": p90,
            "p99Microseconds": p99,
            "operationsPerSecond": operationsPerSecond
        ]
    }

    static let header =
        "operation".padding(toLength: 44, withPad: " ", startingAt: 0)
        + ["n", "p50 µs", "p90 µs", "p99 µs", "ops/s"].enumerated()
        .map { String(repeating: " ", count: max(0, ($0.offset == 0 ? 8 : 13) - $0.element.count)) + $0.element }
        .joined()
}

extension Duration {
    var microseconds: Double {
        Double(components.seconds) * 1_000_000 + Double(components.attoseconds) / 1_000_000_000_000
    }
}
