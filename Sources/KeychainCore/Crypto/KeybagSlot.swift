import Crypto
import Foundation

/// One random key in the `keybag` table and the key-encryption key that wraps it.
enum KeybagSlot: Hashable, Sendable {
    /// The blind-index key (device tier, so lookups work in every lock state).
    case index
    /// The class key of one accessibility value.
    case classKey(Accessibility)

    /// Which KEK wraps the slot.
    enum Tier: UInt8 { case device = 1, user = 2 }

    var name: String {
        switch self {
        case .index: "index"
        case .classKey(let accessibility): accessibility.rawValue
        }
    }

    init?(name: String) {
        if name == "index" { self = .index } else if let accessibility = Accessibility(rawValue: name) {
            self = .classKey(accessibility)
        } else { return nil }
    }

    var tier: Tier {
        switch self {
        case .index: .device
        case .classKey(let accessibility): accessibility.protectionClass == .always ? .device : .user
        }
    }

    /// Whether `keybag`'s index key unwraps with the KEK of `deviceKey`: the check, without any
    /// KDF, that a device key is this keychain's before anything is written under it.
    static func indexOpens(_ keybag: [KeybagSlot: Data], deviceKey: SymmetricKey, vaultID: UUID) -> Bool {
        guard let wrapped = keybag[.index] else { return false }
        let deviceKEK = KeyHierarchy.deviceKEK(deviceKey: deviceKey, vaultID: vaultID)
        return (try? index.unwrap(wrapped, with: deviceKEK, vaultID: vaultID)) != nil
    }

    /// Seals a key under a KEK with AES-GCM; the associated data binds the vault, the slot and its tier.
    func wrap(_ key: SymmetricKey, with kek: SymmetricKey, vaultID: UUID) throws -> Data {
        let plaintext = key.withUnsafeBytes { Data($0) }
        return try AES.GCM.seal(plaintext, using: kek, authenticating: associatedData(vaultID)).combined!
    }

    /// Opens a wrapped key; fails when the KEK is wrong or the row was altered.
    func unwrap(_ wrapped: Data, with kek: SymmetricKey, vaultID: UUID) throws -> SymmetricKey {
        let box = try AES.GCM.SealedBox(combined: wrapped)
        return SymmetricKey(data: try AES.GCM.open(box, using: kek, authenticating: associatedData(vaultID)))
    }

    private func associatedData(_ vaultID: UUID) -> Data {
        var writer = ByteWriter()
        writer.append(Data("SV1K".utf8))
        writer.append(vaultID.bytes)
        writer.appendLengthPrefixed(name)
        writer.append(tier.rawValue)
        return writer.data
    }
}
