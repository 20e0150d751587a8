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
    /// every variable-length field length-prefixed.
    func associatedData(_ half: Half) -> Data {
        var writer = ByteWriter()
        writer.append(Data("SV1".utf8))
        writer.append(half.rawValue)
        writer.append(vaultID.bytes)
        writer.append(itemID.bytes)
        writer.appendLengthPrefixed(itemClass.rawValue)
        writer.append(UInt8(accessibility.keyClassNumber))
        writer.appendLengthPrefixed(primaryKeyIndex)
        writer.append(bigEndian: rowVersion)
        return writer.data
    }
}
