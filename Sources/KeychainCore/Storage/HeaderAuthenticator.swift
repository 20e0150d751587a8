import Crypto
import Foundation
import GRDB

/// The MAC over everything in the header and keybag that decides how the keychain is opened:
/// format, vault id, keybag generation, the passphrase's scrypt salt and parameters, the unlock
/// session record, and every keybag row. It is keyed by a device-derived key, so it is checked
/// at open and whenever the keybag changes, before any key is unwrapped and before scrypt runs:
/// a file cannot strip its passphrase, splice in an older keybag, claim another format or ask for
/// hostile KDF parameters without the device key. (Someone who holds the device key can forge
/// it; what protects the items from them is the passphrase and key rotation.)
///
/// The state record (counter and digest) has its own MAC (``StateDigest``), because it changes
/// on every write while this one changes only with the keybag or the unlock session.
struct HeaderAuthenticator {
    private let key: SymmetricKey

    init(deviceKey: SymmetricKey, vaultID: UUID) {
        key = KeyHierarchy.integrityKey(deviceKey: deviceKey, vaultID: vaultID, purpose: "sv4/header")
    }

    /// The MAC of a header and its keybag.
    func code(for header: VaultHeader, keybag: [KeybagSlot: Data]) -> Data {
        var writer = ByteWriter()
        writer.append(Data("SV4H".utf8))
        writer.append(header.vaultID.bytes)
        writer.append(bigEndian: Int64(header.formatVersion))
        writer.append(bigEndian: header.keybagGeneration)
        if let passphrase = header.passphrase {
            writer.append(UInt8(1))
            writer.appendLengthPrefixed(passphrase.salt)
            for value in [passphrase.parameters.logN, passphrase.parameters.blockSize, passphrase.parameters.parallelism] {
                writer.append(bigEndian: Int64(value))
            }
        } else {
            writer.append(UInt8(0))
        }
        if let session = header.session {
            writer.append(UInt8(1))
            writer.appendLengthPrefixed(session.id)
            writer.appendLengthPrefixed(session.sealedKEK)
        } else {
            writer.append(UInt8(0))
        }
        writer.append(bigEndian: Int64(keybag.count))
        for (slot, wrapped) in keybag.sorted(by: { $0.key.name < $1.key.name }) {
            writer.appendLengthPrefixed(slot.name)
            writer.appendLengthPrefixed(wrapped)
        }
        return Data(HMAC<SHA256>.authenticationCode(for: writer.data, using: key))
    }

    /// Stores the MAC of the header and keybag as they now are in this transaction.
    func store(_ header: VaultHeader, keybag: [KeybagSlot: Data], _ db: Database) throws {
        try db.execute(sql: "UPDATE vault_header SET header_mac = ? WHERE id = 1", arguments: [code(for: header, keybag: keybag)])
    }

    /// The header and keybag, after checking their MAC and the KDF parameters' bounds.
    ///
    /// - Throws: `.integrityViolation` when the MAC is missing or does not hold (the header or a
    ///   keybag row was edited, replaced by an older copy, or belongs to another device key), or
    ///   when the passphrase parameters are out of bounds.
    static func fetchVerified(_ db: Database, deviceKey: SymmetricKey) throws -> (VaultHeader, [KeybagSlot: Data]) {
        guard let header = try VaultHeader.fetch(db) else { throw KeychainError.tampered("the keychain header is missing") }
        let keybag = try KeyStore.fetchKeybag(db)
        let stored = try Data.fetchOne(db.cachedStatement(sql: "SELECT header_mac FROM vault_header WHERE id = 1"))
        let expected = HeaderAuthenticator(deviceKey: deviceKey, vaultID: header.vaultID).code(for: header, keybag: keybag)
        guard let stored, constantTimeEqual(stored, expected) else {
            // Tell a wrong device key from an edited header: with the right key, the index key
            // unwraps (an AES-GCM open, no KDF).
            let deviceKEK = KeyHierarchy.deviceKEK(deviceKey: deviceKey, vaultID: header.vaultID)
            if let wrapped = keybag[.index], (try? KeybagSlot.index.unwrap(wrapped, with: deviceKEK, vaultID: header.vaultID)) == nil {
                throw KeychainError(.keychainUnavailable, "The device key does not belong to this keychain (the keybag does not open with it). The keychain was created with another device key file: restore that file, or move the keychain aside to start a new one.")
            }
            throw KeychainError(.integrityViolation, "The keychain's header or keybag fails its authentication check: it was edited, partly replaced by an older copy, or does not belong to this device key. Nothing was unlocked or derived. Restore the keychain from a backup.")
        }
        try header.passphrase?.parameters.requireWithinBounds(in: "the keychain header")
        return (header, keybag)
    }

    /// Compares two MACs in time that depends only on their length.
    static func constantTimeEqual(_ lhs: Data, _ rhs: Data) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }
}
