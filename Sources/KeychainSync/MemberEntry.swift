import Crypto
import Foundation

/// A member of the circle as the others see it: its id, name, public key and when it joined,
/// sealed under the circle's member key (the server sees only the device id).
struct MemberEntry: Sendable, Hashable {
    /// The device's id.
    var deviceID: UUID
    /// The device's name.
    var name: String
    /// The device's key-agreement public key (raw, 32 bytes).
    var publicKey: Data
    /// When it joined (seconds since 1970).
    var joined: Double

    /// The sealed body for generation `key.generation`.
    func sealed(key: CircleKey) throws(SyncError) -> Data {
        var plain = ByteBuffer()
        plain.append(deviceID.bytes)
        plain.appendPrefixed(Data(name.utf8))
        plain.appendPrefixed(publicKey)
        plain.append(joined.bitPattern)
        do {
            return try AES.GCM.seal(RecordSealer.pad(plain.data), using: key.memberKey, authenticating: Self.associatedData(deviceID, key)).combined!
        } catch {
            throw SyncError(.invalidState, "A member entry could not be sealed (AES-GCM failed).")
        }
    }

    /// Opens the entry of `deviceID` sealed under `key`.
    static func open(_ body: Data, deviceID: UUID, key: CircleKey) throws(SyncError) -> MemberEntry {
        do {
            let plain = try AES.GCM.open(AES.GCM.SealedBox(combined: body), using: key.memberKey, authenticating: associatedData(deviceID, key))
            var input = ByteReader(RecordSealer.unpad(plain) ?? Data())
            guard let id = input.bytes(16).flatMap(UUID.init(bytes:)), id == deviceID,
                  let name = input.prefixed().flatMap({ String(data: $0, encoding: .utf8) }), let publicKey = input.prefixed(), publicKey.count == 32,
                  let joined = input.integer(UInt64.self), input.isAtEnd else {
                throw SyncError.tampered("a member entry that cannot be read")
            }
            return MemberEntry(deviceID: id, name: name, publicKey: publicKey, joined: Double(bitPattern: joined))
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.tampered("a member entry that fails authentication")
        }
    }

    private static func associatedData(_ deviceID: UUID, _ key: CircleKey) -> Data {
        var data = Data("keychain-sync member 1".utf8)
        data.append(key.circleID.bytes)
        withUnsafeBytes(of: key.generation.bigEndian) { data.append(contentsOf: $0) }
        data.append(deviceID.bytes)
        return data
    }
}
