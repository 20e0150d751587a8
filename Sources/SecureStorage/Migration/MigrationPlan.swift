import Foundation

/// What a migration will do, shown before anything moves. Holds no values.
public struct MigrationPlan: Sendable, Hashable {
    /// One key to move.
    public struct Item: Sendable, Hashable {
        /// The key in the source.
        public let key: String
        /// The value's type as the source stored it.
        public let type: String
        /// Why it was selected.
        public let reason: String
        /// The keychain account it goes to (in ``MigrationPlan/service``).
        public let account: String
    }

    /// The source file (absolute path).
    public let file: String
    /// Its format.
    public let format: SourceFormat
    /// The keychain service the values go to.
    public let service: String
    /// The protection they get.
    public let sensitivity: Sensitivity
    /// The keys to move, in file order.
    public let items: [Item]
    /// Entries of the source that stay (not selected).
    public let untouchedKeys: Int
}
