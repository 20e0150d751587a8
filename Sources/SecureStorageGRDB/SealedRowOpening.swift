import Dispatch
import Foundation
import GRDB

/// Opens the rows of a fetch, on every core when there are many: each row's outcome (its opened
/// values or its error) is the same as opening the rows one by one, and the caller takes them in
/// row order, so the error a fetch throws is the first failing row's, whatever the scheduling.
enum SealedRowOpening {
    /// Below this many rows, one thread opens them (spreading them costs more than it saves).
    static let parallelThreshold = 256

    /// The cores to spread over, read once (`activeProcessorCount` costs a sysfs read).
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// Each row of `rows` opened with `layout`, in order.
    static func open(_ rows: [[DatabaseValue]], with layout: SealedRowLayout) -> [Result<
        [DatabaseValue], SealedDatabaseError
    >] {
        guard rows.count >= parallelThreshold, Self.cores > 1 else {
            return rows.map { values in Result { () throws(SealedDatabaseError) in try layout.open(values) } }
        }
        let chunks = min(Self.cores * 4, rows.count)
        var outcomes = [Result<[DatabaseValue], SealedDatabaseError>](repeating: .success([]), count: rows.count)
        outcomes.withUnsafeMutableBufferPointer { buffer in
            // Each chunk writes only its own slots.
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let range = (rows.count * chunk / chunks)..<(rows.count * (chunk + 1) / chunks)
                for index in range {
                    slots[index] = Result { () throws(SealedDatabaseError) in try layout.open(rows[index]) }
                }
            }
        }
        return outcomes
    }
}
