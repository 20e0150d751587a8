import Foundation
@_spi(Testing) import KeychainCore
import KeychainSync

/// How long one device's sync takes when little or nothing changed, with N synchronizable items:
/// in the process that synced last (warm) and in a new process (fresh: a child process of this
/// benchmark opens the keychain and syncs once). The floor, measured in the same run, is the same
/// sync of a keychain with 100 items: what a sync costs whatever the keychain's size.
enum SyncLatencyBenchmarks {
    /// One size's numbers, in milliseconds.
    struct Numbers {
        var idleWarm: Double
        var idleFresh: Double
        var afterWritesWarm: [Int: Double]
        var afterWritesFresh: [Int: Double]
    }

    /// How many items each "after k writes" row writes before the sync.
    static let writeCounts = [1, 100]

    /// Measures a device that founded a circle and synced its `source` keychain.
    static func measure(
        founder: KeychainSynchronizer, source: Keychain, directory: URL, nextIndex: inout Int,
        item: (Int, String) -> NewItem
    ) throws -> Numbers {
        func timed(_ body: () throws -> Void) rethrows -> Double {
            let start = Date()
            try body()
            return Date().timeIntervalSince(start) * 1000
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        try founder.syncNow()
        let idleWarm = median(try (0..<5).map { _ in try timed { try founder.syncNow() } })
        let idleFresh = median(try (0..<3).map { _ in try freshSync(directory) })
        var afterWritesWarm: [Int: Double] = [:]
        var afterWritesFresh: [Int: Double] = [:]
        for writes in writeCounts {
            var warm: [Double] = []
            var fresh: [Double] = []
            for _ in 0..<3 {
                _ = try source.add(contentsOf: (0..<writes).map { item(nextIndex + $0, "written") })
                nextIndex += writes
                warm.append(try timed { try founder.syncNow() })
                _ = try source.add(contentsOf: (0..<writes).map { item(nextIndex + $0, "written") })
                nextIndex += writes
                fresh.append(try freshSync(directory))
                try founder.syncNow()
            }
            afterWritesWarm[writes] = median(warm)
            afterWritesFresh[writes] = median(fresh)
        }
        return Numbers(
            idleWarm: idleWarm, idleFresh: idleFresh, afterWritesWarm: afterWritesWarm,
            afterWritesFresh: afterWritesFresh)
    }

    /// Runs one sync of the keychain in `directory` in a new process of this benchmark; its time in ms.
    static func freshSync(_ directory: URL) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if !FileManager.default.isExecutableFile(atPath: process.executableURL!.path) {
            process.executableURL = Bundle.main.executableURL
        }
        process.arguments = ["--sync-child", directory.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let milliseconds = Double(
                String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw SyncError(
                .serverUnreachable, "the fresh-process sync failed: \(String(decoding: data, as: UTF8.self))")
        }
        return milliseconds
    }

    /// The child's side of ``freshSync(_:)``: opens the keychain in `directory` and prints how
    /// long one sync took, in milliseconds (opening it is not counted).
    static func child(directory: String) throws {
        let options = KeychainOptions(
            passphraseHardening: .fixed(.insecureForTestingOnly), resumesUnlockSession: false, tpm: nil)
        let keychain = try Keychain(
            location: KeychainLocation(directory: URL(fileURLWithPath: directory)), options: options)
        let synchronizer = KeychainSynchronizer(keychain: keychain)
        let start = Date()
        try synchronizer.syncNow()
        print(String(format: "%.3f", Date().timeIntervalSince(start) * 1000))
    }
}
