import Foundation

/// What one `keychain-stress mixed` process saw, merged over its threads (printed as JSON).
public struct MixedReport: Codable, Sendable {
    /// Everything that should not have happened, in words.
    public var failures: [String] = []
    /// The threads' own items that should exist, with the sequence number of their last value.
    public var ownItems: [String: Int] = [:]
    /// Successful adds and deletes of each shared item, keyed "s3/add", "s3/delete".
    public var sharedSuccesses: [String: Int] = [:]

    /// Adds another thread's or process's observations.
    public mutating func merge(_ other: MixedReport) {
        failures += other.failures
        ownItems.merge(other.ownItems) { $1 }
        sharedSuccesses.merge(other.sharedSuccesses, uniquingKeysWith: +)
    }

    /// An empty report.
    public init() {}
}
