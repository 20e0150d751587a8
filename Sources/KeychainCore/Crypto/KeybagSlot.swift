import Crypto
import Foundation
import SecureStorageFoundation

/// One random key in the `keybag` table and the key-encryption key that wraps it.
enum KeybagSlot: Hashable, Sendable {
    /// The blind-index key (device tier, so lookups work in every lock state).
    case index
    /// The class key of one accessibility value.
    case classKey(Accessibility)
    /// The presence public key, in clear (``PresencePublicKey``).
    case presencePublicKey
    /// One enrolled authenticator's wrap of the presence private key (``PresenceEnrollment``).
    case presenceEnrollment(AuthenticationMethod, identifier: Data)

    /// Which KEK wraps the slot.
    enum Tier: UInt8 { case device = 1, user = 2 }

    var name: String {
        switch self {
        case .index: "index"
        case .classKey(let accessibility): accessibility.rawValue
        case .presencePublicKey: "presence"
        case .presenceEnrollment(let method, let identifier):
            "presence.\(method.rawValue).\(identifier.map { String(format: "%02x", $0) }.joined())"
        }
    }

    init?(name: String) {
        if name == "index" {
            self = .index
        } else if let accessibility = Accessibility(rawValue: name) {
            self = .classKey(accessibility)
        } else if name == "presence" {
            self = .presencePublicKey
        } else if name.hasPrefix("presence.") {
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let method = AuthenticationMethod(rawValue: String(parts[1])),
                let identifier = Data(hexadecimal: parts[2]), !identifier.isEmpty
            else { return nil }
            self = .presenceEnrollment(method, identifier: identifier)
            guard self.name == name else { return nil }  // one spelling per slot: lowercase hex
        } else {
            return nil
        }
    }

    /// Whether the slot holds a class key (the slots a passphrase change rotates or keeps).
    var isClassKey: Bool {
        if case .classKey = self { return true }
        return false
    }

    /// The tier whose KEK wraps the slot. Presence slots are wrapped by no tier (the public key
    /// is clear, enrolments are wrapped by authenticator secrets); they count as device tier,
    /// which only the key-wrapping associated data uses.
    var tier: Tier {
        switch self {
        case .index, .presencePublicKey, .presenceEnrollment: .device
        case .classKey(let accessibility): accessibility.protectionClass == .always ? .device : .user
        }
    }

    /// Whether `keybag`'s index key unwraps with the KEK of `deviceKey`: the check, without any
    /// KDF, that a device key is this keychain's before anything is written under it.
    static func indexOpens(_ keybag: [KeybagSlot: Data], deviceKey: SymmetricKey, vaultID: UUID) -> Bool {
        (try? indexKey(in: keybag, deviceKey: deviceKey, vaultID: vaultID)) != nil
    }

    /// `keybag`'s blind-index key, unwrapped with the KEK of `deviceKey` (the device tier).
    /// - Throws: `.integrityViolation` when the keybag has none; ``wrongDeviceKey`` when it does
    ///   not unwrap with this device key.
    static func indexKey(in keybag: [KeybagSlot: Data], deviceKey: SymmetricKey, vaultID: UUID) throws(KeychainError)
        -> SymmetricKey
    {
        guard let wrapped = keybag[.index] else { throw KeychainError.tamperedMissingIndexKey() }
        do {
            return try index.unwrap(
                wrapped, with: KeyHierarchy.deviceKEK(deviceKey: deviceKey, vaultID: vaultID), vaultID: vaultID)
        } catch {
            throw KeychainError.wrongDeviceKey()
        }
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

extension Data {
    /// Bytes from lowercase or uppercase hexadecimal; `nil` for an odd length or another character.
    init?(hexadecimal text: Substring) {
        guard text.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
