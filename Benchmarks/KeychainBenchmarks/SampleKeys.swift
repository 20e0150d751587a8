import Foundation
import KeychainCore

/// The items every benchmark stores: generic password number `index` of service
/// `service-(index % 10)` and account `account-index`, in the keychain and in the SQLite floor.
enum SampleKeys {
    static func service(_ index: Int) -> String { "service-\(index % 10)" }
    static func account(_ index: Int) -> String { "account-\(index)" }

    /// The keychain attributes that identify item `index`.
    static func attributes(_ index: Int) -> [AttributeKey: AttributeValue] {
        [.service: .string(service(index)), .account: .string(account(index))]
    }

    /// Which of `size` stored items a run of `count` samples touches: spread evenly, so reads hit
    /// the whole key space rather than a hot corner of it.
    static func spread(_ count: Int, over size: Int) -> [Int] {
        guard size > 0 else { return [] }
        return (0..<count).map { ($0 &* 7919 &+ 13) % size }
    }
}
