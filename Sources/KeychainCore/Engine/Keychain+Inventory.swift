import Foundation
import GRDB

/// How many items a keychain holds, read from the clear columns (no key needed, works locked).
public struct ItemInventory: Sendable, Hashable {
    /// Items per stored class.
    public let byClass: [ItemClass: Int]
    /// Items per accessibility.
    public let byAccessibility: [Accessibility: Int]

    /// All items.
    public var total: Int { byClass.values.reduce(0, +) }
}

extension Keychain {
    /// Whether a keychain database exists at `location` (opening one that does not creates it).
    public static func exists(at location: KeychainLocation) -> Bool {
        PlatformIO.fileExists(location.databaseURL.path)
    }

    /// Creates a new keychain at `location`, failing with `.duplicateKeychain` when one exists.
    ///
    /// With a `passphrase`, the keychain is created with it in one transaction (its class keys
    /// are never written under the device key alone) and is returned unlocked.
    ///
    /// ```swift
    /// let keychain = try Keychain.create(at: KeychainLocation(directory: url), passphrase: passphrase)
    /// ```
    ///
    /// - Throws: `.duplicateKeychain` when a keychain exists there, `.invalidParameter` for an
    ///   empty passphrase.
    public static func create(
        at location: KeychainLocation, passphrase: String? = nil,
        options: KeychainOptions = KeychainOptions()
    ) throws(KeychainError) -> Keychain {
        try Keychain(location: location, options: options, mustCreate: true, initialPassphrase: passphrase)
    }

    /// The format version of the keychain file.
    public var formatVersion: Int { keys.header.formatVersion }

    /// Counts the items per class and per accessibility.
    public func inventory() throws(KeychainError) -> ItemInventory {
        try read { db in
            var byClass: [ItemClass: Int] = [:]
            var byAccessibility: [Accessibility: Int] = [:]
            for row in try ItemTable.countsByClassAndAccessibility(in: db) {
                guard let itemClass = ItemClass(rawValue: try row.checked(0, "item_class", in: "items")),
                    let accessibility = Accessibility(rawValue: try row.checked(1, "accessibility", in: "items"))
                else {
                    throw KeychainError.tamperedItemRowClassOrAccessibility()
                }
                let count: Int = try row.checked(2, "count", in: "items")
                byClass[itemClass, default: 0] += count
                byAccessibility[accessibility, default: 0] += count
            }
            return ItemInventory(byClass: byClass, byAccessibility: byAccessibility)
        }
    }
}
