import Foundation

/// Everything an item's ciphertexts are bound to. Changing any of it
/// in the database — swapping rows, moving a row to another class, replaying another version —
/// makes decryption fail.
struct ItemBinding: Sendable {
    var vaultID: UUID
    var itemID: UUID
    var itemClass: ItemClass
    var accessibility: Accessibility
    var primaryKeyIndex: Data
    var rowVersion: Int64

    /// Which half of the item a ciphertext holds.
    enum Half: UInt8 {
        case metadata = 1
        case secret = 2
    }

    /// `"SV1" ‖ half ‖ vault id ‖ item id ‖ class ‖ key class ‖ primary-key index ‖ row version`,
    /// every variable-length field length-prefixed (32-bit big-endian), integers big-endian.
    /// Built in one buffer of its exact size: it is made twice for every item read or written.
    func associatedData(_ half: Half) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(3 + 1 + 16 + 16 + 4 + itemClass.rawValue.utf8.count + 1 + 4 + primaryKeyIndex.count + 8)
        bytes.append(contentsOf: "SV1".utf8)
        bytes.append(half.rawValue)
        withUnsafeBytes(of: vaultID.uuid) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: itemID.uuid) { bytes.append(contentsOf: $0) }
        bytes.appendLengthPrefixed(itemClass.rawValue)
        bytes.append(UInt8(accessibility.keyClassNumber))
        bytes.appendLengthPrefixed(primaryKeyIndex)
        bytes.append(bigEndian: rowVersion)
        return Data(bytes)
    }
}
