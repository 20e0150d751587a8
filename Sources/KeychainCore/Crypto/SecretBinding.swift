import Foundation
import SecureStorageFoundation

/// For an item whose data is sealed to the presence key: the row version, accessibility and
/// primary-key index its data was sealed under, kept in its encrypted attributes.
///
/// Changing such an item's attributes cannot re-encrypt its data without the user (the data key
/// needs the presence key), so the data ciphertext and its presence wrap stay as they are, and
/// the new attributes — sealed under the new row version like any others — carry this record.
/// The data then opens only with the binding the current attributes name: an older data
/// ciphertext of the same item, put back into the row, was sealed under an older row version
/// and does not authenticate.
struct SecretBinding: Equatable {
    /// The attribute that holds it; internal, never returned, never tagged.
    static let attribute: AttributeKey = "sbnd"

    var rowVersion: Int64
    var accessibility: Accessibility
    var primaryKeyIndex: Data

    init(_ binding: ItemBinding) {
        rowVersion = binding.rowVersion
        accessibility = binding.accessibility
        primaryKeyIndex = binding.primaryKeyIndex
    }

    /// The record stored in the attributes of a presence-sealed item, if it is one.
    init(attributes: [AttributeKey: AttributeValue]) throws(KeychainError) {
        var reader = ByteReader(attributes[Self.attribute]?.dataValue ?? Data())
        guard let version = reader.readBigEndian(Int64.self), let raw = reader.readLengthPrefixed(),
            let accessibility = Accessibility(rawValue: String(decoding: raw, as: UTF8.self)),
            let primaryKeyIndex = reader.readLengthPrefixed(), reader.isAtEnd
        else {
            throw KeychainError.tamperedSealingRecord()
        }
        rowVersion = version
        self.accessibility = accessibility
        self.primaryKeyIndex = primaryKeyIndex
    }

    var attributeValue: AttributeValue {
        var writer = ByteWriter()
        writer.append(bigEndian: rowVersion)
        writer.appendLengthPrefixed(accessibility.rawValue)
        writer.appendLengthPrefixed(primaryKeyIndex)
        return .data(writer.data)
    }

    /// The binding the data ciphertext authenticates against.
    func applied(to binding: ItemBinding) -> ItemBinding {
        var secret = binding
        secret.rowVersion = rowVersion
        secret.accessibility = accessibility
        secret.primaryKeyIndex = primaryKeyIndex
        return secret
    }
}
