import Crypto
import Foundation

/// One generation of a sync circle's key: 32 random bytes every member holds and the server
/// never sees, and the keys derived from it.
///
/// A circle starts at generation 0; removing a device makes the next generation, wrapped to
/// every remaining member only, so what is written after the removal is unreadable to it.
struct CircleKey: Sendable {
    /// The circle this key belongs to.
    let circleID: UUID
    /// The generation (0, 1, …).
    let generation: UInt32
    /// The secret itself.
    let secret: SymmetricKey

    /// Encrypts and authenticates records (AES-256-GCM).
    let recordKey: SymmetricKey
    /// Turns an item's class and primary key into its record id (HMAC-SHA256, 16 bytes).
    let identifierKey: SymmetricKey
    /// Authenticates the manifest and its per-record terms (HMAC-SHA256).
    let manifestKey: SymmetricKey
    /// Encrypts and authenticates the roster's membership changes (AES-256-GCM).
    let rosterKey: SymmetricKey

    init(circleID: UUID, generation: UInt32, secret: SymmetricKey) {
        self.circleID = circleID
        self.generation = generation
        self.secret = secret
        func derive(_ label: String) -> SymmetricKey {
            var info = Data("keychain-sync \(label)".utf8)
            withUnsafeBytes(of: generation.bigEndian) { info.append(contentsOf: $0) }
            return HKDF<SHA256>.deriveKey(
                inputKeyMaterial: secret, salt: circleID.bytes, info: info, outputByteCount: 32)
        }
        recordKey = derive("record")
        identifierKey = derive("identifier")
        manifestKey = derive("manifest")
        rosterKey = derive("roster")
    }

    /// A new random generation-0 key for a new circle.
    static func random(circleID: UUID) -> CircleKey {
        CircleKey(circleID: circleID, generation: 0, secret: SymmetricKey(size: .bits256))
    }

    /// The next generation, random.
    func next() -> CircleKey {
        CircleKey(circleID: circleID, generation: generation + 1, secret: SymmetricKey(size: .bits256))
    }

    /// The secret's bytes, for wrapping to a member and for the local state.
    var secretBytes: Data { secret.withUnsafeBytes { Data($0) } }
}

extension UUID {
    /// The 16 bytes of the UUID.
    var bytes: Data { withUnsafeBytes(of: uuid) { Data($0) } }

    /// The UUID of 16 bytes, or `nil` for another length.
    init?(bytes: Data) {
        guard bytes.count == 16 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes) }
        self.init(uuid: value)
    }
}
