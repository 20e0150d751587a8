import Foundation

/// Benchmarks of the layers above the engine (added as they are built).
enum ExtraBenchmarks {
    static func run(items: Int, in directory: URL) throws -> [Measurement] { [] }
}
