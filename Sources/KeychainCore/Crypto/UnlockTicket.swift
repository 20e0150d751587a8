import Crypto
import Foundation
import SecureStorageFoundation

/// A remembered unlock, the process-side half of an unlock session: a random session key with
/// the session's id and expiry, sealed under a key derived from the device key and this boot's
/// id, so the ticket alone opens nothing and a reboot voids it.
///
/// The other half is the session record in the keychain header (``UnlockSessionRecord``): the
/// user-tier KEK sealed under the session key, with the session id, keybag generation and expiry
/// as associated data. ``Keychain/lock()`` removes that record and a passphrase change replaces
/// the keybag, so every copy of the ticket — wherever it was copied to — stops working at once.
/// The ticket never holds a long-term key.
///
/// Layout: `"SSUT"` ‖ version 2 ‖ vault id (16) ‖ session id (16) ‖ expiry (8, seconds since
/// 1970, 0 = none) ‖ AES-GCM(session key) with the preceding bytes as associated data.
struct UnlockTicket {
    private static let magic = Data("SSUT".utf8)
    private static let version: UInt8 = 2
    private static let headerSize = 4 + 1 + 16 + 16 + 8
    /// A ticket's exact size: the header and a sealed 32-byte key (nonce 12, tag 16).
    static let maximumSize = headerSize + 12 + 32 + 16

    var vaultID: UUID
    var sessionID: Data
    var expiry: Date?
    var sessionKey: SymmetricKey

    /// A new session: random id and key.
    init(vaultID: UUID, expiry: Date?) {
        self.vaultID = vaultID
        sessionID = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
        self.expiry = expiry
        sessionKey = SymmetricKey(size: .bits256)
    }

    private init(vaultID: UUID, sessionID: Data, expiry: Date?, sessionKey: SymmetricKey) {
        self.vaultID = vaultID
        self.sessionID = sessionID
        self.expiry = expiry
        self.sessionKey = sessionKey
    }

    func sealed(deviceKey: SymmetricKey) throws -> Data {
        let header = Self.header(vaultID: vaultID, sessionID: sessionID, expiry: expiry)
        var plaintext = sessionKey.withUnsafeBytes { Data($0) }
        defer { SecretWiping.wipe(&plaintext) }
        let box = try AES.GCM.seal(
            plaintext, using: Self.ticketKey(deviceKey, vaultID: vaultID), authenticating: header)
        return header + box.combined!
    }

    /// Opens a ticket of this vault; `nil` when it is malformed, for another vault or boot, or was altered.
    static func open(_ bytes: Data, deviceKey: SymmetricKey, vaultID: UUID) -> UnlockTicket? {
        guard bytes.count > headerSize else { return nil }
        let header = Data(bytes.prefix(headerSize))
        var reader = ByteReader(header)
        guard reader.readBytes(magic.count) == magic, reader.readByte() == version,
            let id = reader.readBytes(16), UUID(bytes: id) == vaultID, let sessionID = reader.readBytes(16),
            let seconds = reader.readBigEndian(UInt64.self),
            let box = try? AES.GCM.SealedBox(combined: bytes.dropFirst(headerSize)),
            var key = try? AES.GCM.open(box, using: ticketKey(deviceKey, vaultID: vaultID), authenticating: header)
        else { return nil }
        defer { SecretWiping.wipe(&key) }
        return UnlockTicket(
            vaultID: vaultID, sessionID: sessionID,
            expiry: seconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds)),
            sessionKey: SymmetricKey(data: key))
    }

    /// The header's half of this session: `userKEK` sealed under the session key.
    func record(sealing userKEK: SymmetricKey, keybagGeneration: Int64) throws -> UnlockSessionRecord {
        var plaintext = userKEK.withUnsafeBytes { Data($0) }
        defer { SecretWiping.wipe(&plaintext) }
        let box = try AES.GCM.seal(plaintext, using: sessionKey, authenticating: recordAssociatedData(keybagGeneration))
        return UnlockSessionRecord(id: sessionID, sealedKEK: box.combined!)
    }

    /// The user-tier KEK from the header's session record, when the record is this session's,
    /// of the current keybag, and not altered; `nil` otherwise (the session was ended).
    func userKEK(from record: UnlockSessionRecord?, keybagGeneration: Int64) -> SymmetricKey? {
        guard let record, HeaderAuthenticator.constantTimeEqual(record.id, sessionID),
            let box = try? AES.GCM.SealedBox(combined: record.sealedKEK),
            var kek = try? AES.GCM.open(box, using: sessionKey, authenticating: recordAssociatedData(keybagGeneration))
        else { return nil }
        defer { SecretWiping.wipe(&kek) }
        return SymmetricKey(data: kek)
    }

    private func recordAssociatedData(_ generation: Int64) -> Data {
        var writer = ByteWriter()
        writer.append(Data("SV4U".utf8))
        writer.append(vaultID.bytes)
        writer.append(sessionID)
        writer.append(bigEndian: generation)
        writer.append(bigEndian: Self.expirySeconds(expiry))
        return writer.data
    }

    private static func header(vaultID: UUID, sessionID: Data, expiry: Date?) -> Data {
        var writer = ByteWriter()
        writer.append(magic)
        writer.append(version)
        writer.append(vaultID.bytes)
        writer.append(sessionID)
        writer.append(bigEndian: expirySeconds(expiry))
        return writer.data
    }

    private static func expirySeconds(_ expiry: Date?) -> UInt64 {
        UInt64(max(0, (expiry?.timeIntervalSince1970 ?? 0).rounded(.up)))
    }

    private static func ticketKey(_ deviceKey: SymmetricKey, vaultID: UUID) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: deviceKey, salt: vaultID.bytes, info: Data("sv4/unlock-ticket".utf8) + bootID,
            outputByteCount: 32)
    }

    /// This boot's identifier (Linux `/proc/sys/kernel/random/boot_id`); empty where there is none.
    static let bootID: Data = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/sys/kernel/random/boot_id"))) ?? Data()
}
