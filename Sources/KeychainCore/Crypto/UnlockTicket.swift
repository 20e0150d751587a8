import Crypto
import Foundation

/// A remembered unlock: the user-tier KEK sealed under a key derived from the device key, with
/// an expiry, so that later processes of the same user start unlocked (what `security
/// unlock-keychain` does for a login session).
///
/// The ticket alone opens nothing: it is sealed under HKDF(device key, vault id,
/// "sv1/unlock-ticket" ‖ boot id), so a reboot voids it, and the KEK it holds stops working when
/// the passphrase changes (the keybag generation is bound too). The expiry is enforced by the
/// readers, which remove expired tickets. Layout: `"SSUT"` ‖ version 1 ‖ vault id (16) ‖ keybag
/// generation (8) ‖ expiry (8, seconds since 1970, 0 = none) ‖ AES-GCM(KEK) with the preceding
/// bytes as associated data.
struct UnlockTicket {
    private static let magic = Data("SSUT".utf8)
    private static let version: UInt8 = 1

    var vaultID: UUID
    var keybagGeneration: Int64
    var expiry: Date?
    var userKEK: SymmetricKey

    func sealed(deviceKey: SymmetricKey) throws -> Data {
        let header = Self.header(vaultID: vaultID, generation: keybagGeneration, expiry: expiry)
        var plaintext = userKEK.withUnsafeBytes { Data($0) }
        defer { SecretWiping.wipe(&plaintext) }
        let box = try AES.GCM.seal(plaintext, using: Self.ticketKey(deviceKey, vaultID: vaultID), authenticating: header)
        return header + box.combined!
    }

    /// Opens a ticket of this vault; `nil` when it is malformed, for another vault or was altered.
    static func open(_ bytes: Data, deviceKey: SymmetricKey, vaultID: UUID) -> UnlockTicket? {
        let headerSize = magic.count + 1 + 16 + 8 + 8
        guard bytes.count > headerSize else { return nil }
        let header = Data(bytes.prefix(headerSize))
        var reader = ByteReader(header)
        guard reader.readBytes(magic.count) == magic, reader.readByte() == version,
              let id = reader.readBytes(16), UUID(bytes: id) == vaultID,
              let generation = reader.readBigEndian(Int64.self), let seconds = reader.readBigEndian(UInt64.self),
              let box = try? AES.GCM.SealedBox(combined: bytes.dropFirst(headerSize)),
              var kek = try? AES.GCM.open(box, using: ticketKey(deviceKey, vaultID: vaultID), authenticating: header)
        else { return nil }
        defer { SecretWiping.wipe(&kek) }
        return UnlockTicket(vaultID: vaultID, keybagGeneration: generation,
                            expiry: seconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds)),
                            userKEK: SymmetricKey(data: kek))
    }

    private static func header(vaultID: UUID, generation: Int64, expiry: Date?) -> Data {
        var writer = ByteWriter()
        writer.append(magic)
        writer.append(version)
        writer.append(vaultID.bytes)
        writer.append(bigEndian: generation)
        writer.append(bigEndian: UInt64(max(0, (expiry?.timeIntervalSince1970 ?? 0).rounded(.up))))
        return writer.data
    }

    private static func ticketKey(_ deviceKey: SymmetricKey, vaultID: UUID) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: deviceKey, salt: vaultID.bytes, info: Data("sv1/unlock-ticket".utf8) + bootID,
                               outputByteCount: 32)
    }

    /// This boot's identifier (Linux `/proc/sys/kernel/random/boot_id`); empty where there is none.
    static let bootID: Data = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/sys/kernel/random/boot_id"))) ?? Data()
}
