import Crypto
import Foundation
import GRDB
import SecureStorageFoundation

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
            for value in [
                passphrase.parameters.logN, passphrase.parameters.blockSize, passphrase.parameters.parallelism
            ] {
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

    /// Stores the MAC of the header and keybag as they now are in this transaction (creation and
    /// the upgrade to format 4; changes go through ``storeChange(_:keybag:location:deviceKey:_:)``).
    func store(_ header: VaultHeader, keybag: [KeybagSlot: Data], _ db: Database) throws {
        try db.execute(
            sql: "UPDATE vault_header SET header_mac = ? WHERE id = 1", arguments: [code(for: header, keybag: keybag)])
    }

    /// The stored header MAC.
    static func storedCode(_ db: Database) throws -> Data? {
        try Data.fetchOne(db.cachedStatement(sql: "SELECT header_mac FROM vault_header WHERE id = 1"))
    }

    /// Stores the MAC of a changed header and keybag in the current transaction, after letting
    /// the anchor accept it beside the current one (phase one of ``FormatAnchor``'s two-phase
    /// change; ``settleAnchor(_:location:deviceKey:)`` is phase two, once the transaction committed).
    static func storeChange(
        _ header: VaultHeader, keybag: [KeybagSlot: Data], location: KeychainLocation,
        deviceKey: SymmetricKey, _ db: Database
    ) throws {
        let next = HeaderAuthenticator(deviceKey: deviceKey, vaultID: header.vaultID).code(for: header, keybag: keybag)
        guard let anchor = try FormatAnchor.read(for: location, vaultID: header.vaultID, deviceKey: deviceKey) else {
            throw KeychainError.tamperedFormatAnchorMissing()
        }
        let current = try storedCode(db).flatMap { anchor.accepts($0) ? $0 : nil }
        try FormatAnchor(
            vaultID: header.vaultID, formatVersion: anchor.formatVersion,
            headerMACs: (current.map { [$0] } ?? []) + [next]
        ).write(for: location, deviceKey: deviceKey)
        try db.execute(sql: "UPDATE vault_header SET header_mac = ? WHERE id = 1", arguments: [next])
    }

    /// Phase two: the anchor keeps only the header MAC the file now carries. Run in a write
    /// transaction, so that it never interleaves with another process's change.
    ///
    /// - Returns: whether the anchor held a change that did not commit (the file carries the
    ///   header from before it): the opener then does not resume an unlock session from it.
    @discardableResult
    static func settleAnchor(_ db: Database, location: KeychainLocation, deviceKey: SymmetricKey) throws -> Bool {
        guard let header = try VaultHeader.fetch(db), let stored = try storedCode(db),
            let anchor = try FormatAnchor.read(for: location, vaultID: header.vaultID, deviceKey: deviceKey),
            anchor.headerMACs.count > 1, anchor.accepts(stored)
        else { return false }
        try FormatAnchor(vaultID: header.vaultID, formatVersion: anchor.formatVersion, headerMACs: [stored]).write(
            for: location, deviceKey: deviceKey)
        return constantTimeEqual(anchor.headerMACs[0], stored)
    }

    /// Whether the stored header MAC holds under `deviceKey`, without the anchor; `nil` when the
    /// file has no header yet. Tells which device secret the header was last written under,
    /// when a rotation of the secret was interrupted (``DeviceSecretRotationFiles``).
    static func storedCodeHolds(_ db: Database, deviceKey: SymmetricKey) throws -> Bool? {
        guard let header = try VaultHeader.fetch(db) else { return nil }
        let expected = HeaderAuthenticator(deviceKey: deviceKey, vaultID: header.vaultID).code(
            for: header, keybag: try KeyRing.fetchKeybag(db))
        return try storedCode(db).map { constantTimeEqual($0, expected) } ?? false
    }

    /// The header and keybag, after checking their MAC, that the format anchor beside the device
    /// key accepts that MAC (so an older header and keybag spliced back in are refused), and the
    /// KDF parameters' bounds.
    ///
    /// - Throws: `.integrityViolation` when the MAC is missing or does not hold (the header or a
    ///   keybag row was edited), when the anchor is missing or does not accept it (an older
    ///   header or keybag), or when the passphrase parameters are out of bounds;
    ///   `.keychainUnavailable` when the device key is not this keychain's.
    static func fetchVerified(_ db: Database, deviceKey: SymmetricKey, location: KeychainLocation) throws -> (
        VaultHeader, [KeybagSlot: Data]
    ) {
        guard let header = try VaultHeader.fetch(db) else { throw KeychainError.tamperedHeaderMissing() }
        let keybag = try KeyRing.fetchKeybag(db)
        let stored = try storedCode(db)
        let expected = HeaderAuthenticator(deviceKey: deviceKey, vaultID: header.vaultID).code(
            for: header, keybag: keybag)
        // An anchor that verifies proves the device key is this keychain's.
        let anchor = try? FormatAnchor.read(for: location, vaultID: header.vaultID, deviceKey: deviceKey)
        guard let stored, constantTimeEqual(stored, expected) else {
            // Without an anchor, tell a wrong device key from an edited header: with the right
            // key, the index key unwraps (an AES-GCM open, no KDF).
            if anchor == nil, !KeybagSlot.indexOpens(keybag, deviceKey: deviceKey, vaultID: header.vaultID) {
                throw KeychainError.wrongDeviceKey()
            }
            throw KeychainError.headerAuthenticationFailed()
        }
        guard let anchor, anchor.accepts(stored) else {
            throw UnrecordedHeader(
                error: KeychainError.headerNotTheRecordedOne(
                    anchorFile: FormatAnchor.url(for: location, vaultID: header.vaultID).lastPathComponent))
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

/// The header a transaction sees is not one the format anchor accepts. In a read this may only
/// mean that the snapshot predates a change whose anchor has since settled, so ``Keychain``
/// retries the read on a fresh snapshot before reporting ``error`` (anchor changes happen only
/// inside write transactions, so a write always sees the file and its anchor agree).
struct UnrecordedHeader: Error {
    let error: KeychainError
}
