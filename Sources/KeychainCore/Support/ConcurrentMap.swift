import Foundation
import SecureStorageFoundation

/// Maps `0..<count` on every core, in chunks, when there are enough elements to be worth it.
///
/// For pure computations over many items (a batch's attribute defaults and sealing, a listing's
/// proofs and results): results
/// come back in index order, and when elements fail, the error of the first failing index is
/// thrown, as a sequential loop would throw it.
package enum ConcurrentMap {
    /// Elements per task: enough that scheduling costs nothing next to them.
    package static let chunk = 128

    package static func map<T: Sendable, Failure: Error>(
        _ count: Int, _ transform: @Sendable (Int) throws(Failure) -> T
    )
        throws(Failure) -> [T]
    {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard cores > 1, count >= 2 * chunk else {
            var results: [T] = []
            results.reserveCapacity(count)
            for index in 0..<count { results.append(try transform(index)) }
            return results
        }
        let chunks = (count + chunk - 1) / chunk
        let results = Locked<[Int: Result<[T], Failure>]>([:])
        DispatchQueue.concurrentPerform(iterations: chunks) { part in
            let result = Result { () throws(Failure) -> [T] in
                var mapped: [T] = []
                for index in part * chunk..<min(count, (part + 1) * chunk) { mapped.append(try transform(index)) }
                return mapped
            }
            results.withLock { $0[part] = result }
        }
        let finished = results.withLock { $0 }
        var mapped: [T] = []
        mapped.reserveCapacity(count)
        for part in 0..<chunks { mapped += try finished[part]!.get() }
        return mapped
    }
}
