import Crypto
import Foundation
import SecureStorageFoundation

/// One change to a circle's membership, signed by the device that made it and chained to the
/// change before it: the circle's founding, a device admitted by a member, a device removed by a
/// member, a device leaving.
///
/// Every member holds an Ed25519 signing key whose public half the roster records when it is
/// admitted, so an event names who made it and nobody else can make it in their name: a device
/// cannot pass off an admission it made as another member's. Each event also carries the hash
/// of the one before, so a device that verified the roster up to some event notices any later
/// roster that does not continue it.
///
/// Signed bytes: `kind (1) ‖ position (8) ‖ previous hash (32) ‖ time (8) ‖ author (16) ‖
/// subject (16) ‖ payload`, followed by a 64-byte signature. The payload of a founding or an
/// admission is the subject's signing key (32), agreement key (32) and name; of a removal, the
/// key generation it moves the circle to (4) and the devices it keeps (a count and their ids).
struct RosterEvent: Sendable, Hashable {
    /// What the event does.
    enum Kind: UInt8, Sendable {
        /// The circle was created; the author is its first member.
        case founded = 1
        /// The author approved the subject's join request.
        case admitted = 2
        /// The author removed the subject and every device the subject admitted, directly or
        /// through others, except the ones it keeps; the circle moves to a new key.
        case removed = 3
        /// The subject left the circle.
        case left = 4
    }

    /// What the event does.
    var kind: Kind
    /// Its place in the roster (0 for the founding).
    var position: Int64
    /// The hash of the event before it (zeros for the founding).
    var previousHash: Data
    /// When it was made (seconds since 1970, the author's clock).
    var time: Double
    /// The device that made and signed it.
    var author: UUID
    /// The device it is about.
    var subject: UUID
    /// The subject's Ed25519 public key (founding and admission).
    var signingKey = Data()
    /// The subject's X25519 public key (founding and admission).
    var agreementKey = Data()
    /// The subject's name (founding and admission).
    var name = ""
    /// The key generation a removal moves the circle to.
    var newGeneration: UInt32 = 0
    /// The devices admitted through the removed one that a removal keeps in the circle.
    var kept: [UUID] = []
    /// The author's signature over everything above.
    var signature = Data()

    private static let label = Data("keychain-sync roster 1".utf8)

    /// The bytes the signature covers.
    private var signedFields: Data {
        var out = ByteWriter()
        out.append(bigEndian: kind.rawValue)
        out.append(bigEndian: UInt64(bitPattern: position))
        out.append(previousHash)
        out.append(bigEndian: time.bitPattern)
        out.append(author.bytes)
        out.append(subject.bytes)
        switch kind {
        case .founded, .admitted:
            out.append(signingKey)
            out.append(agreementKey)
            out.appendLengthPrefixed(Data(name.utf8))
        case .removed:
            out.append(bigEndian: newGeneration)
            out.append(bigEndian: UInt16(kept.count))
            for device in kept { out.append(device.bytes) }
        case .left:
            break
        }
        return out.data
    }

    /// The event and its signature, as sealed into the roster.
    var encoded: Data { signedFields + signature }

    /// What identifies the event in the chain: SHA-256 over the circle and the signed event.
    func hash(circleID: UUID) -> Data {
        var hasher = SHA256()
        hasher.update(data: Self.label)
        hasher.update(data: circleID.bytes)
        hasher.update(data: encoded)
        return Data(hasher.finalize())
    }

    /// Signs the event with the author's key.
    mutating func sign(with key: Curve25519.Signing.PrivateKey, circleID: UUID) throws(SyncError) {
        do {
            signature = try key.signature(for: Self.label + circleID.bytes + signedFields)
        } catch {
            throw SyncError.membershipChangeSigningFailed
        }
    }

    /// Whether `publicKey` (raw Ed25519) made the signature.
    func isSigned(by publicKey: Data, circleID: UUID) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(signature, for: Self.label + circleID.bytes + signedFields)
    }

    /// Decodes ``encoded``; `nil` for anything malformed.
    init?(encoded: Data) {
        var input = ByteReader(encoded)
        guard let kindByte = input.readByte(), let kind = Kind(rawValue: kindByte),
            let position = input.readBigEndian(UInt64.self),
            let previousHash = input.readBytes(32), let time = input.readBigEndian(UInt64.self),
            let author = input.readBytes(16).flatMap(UUID.init(bytes:)),
            let subject = input.readBytes(16).flatMap(UUID.init(bytes:))
        else { return nil }
        self.init(
            kind: kind, position: Int64(bitPattern: position), previousHash: previousHash,
            time: Double(bitPattern: time), author: author, subject: subject)
        switch kind {
        case .founded, .admitted:
            guard let signingKey = input.readBytes(32), let agreementKey = input.readBytes(32),
                let name = input.readLengthPrefixed().flatMap({ String(data: $0, encoding: .utf8) })
            else { return nil }
            (self.signingKey, self.agreementKey, self.name) = (signingKey, agreementKey, name)
        case .removed:
            guard let generation = input.readBigEndian(UInt32.self), let count = input.readBigEndian(UInt16.self) else {
                return nil
            }
            newGeneration = generation
            for _ in 0..<count {
                guard let device = input.readBytes(16).flatMap(UUID.init(bytes:)) else { return nil }
                kept.append(device)
            }
        case .left:
            break
        }
        guard let signature = input.readBytes(64), input.isAtEnd else { return nil }
        self.signature = signature
    }

    /// An unsigned event with these parts.
    init(kind: Kind, position: Int64, previousHash: Data, time: Double, author: UUID, subject: UUID) {
        self.kind = kind
        self.position = position
        self.previousHash = previousHash
        self.time = time
        self.author = author
        self.subject = subject
    }

    // MARK: - Sealing

    /// The event sealed for the server under `key` (AES-256-GCM, bound to the circle, the
    /// generation and the position), padded like records so its size says little.
    func sealed(key: CircleKey) throws(SyncError) -> Data {
        do {
            return try AES.GCM.seal(
                RecordSealer.pad(encoded), using: key.rosterKey, authenticating: Self.associatedData(position, key)
            ).combined!
        } catch {
            throw SyncError.membershipChangeSealingFailed
        }
    }

    /// Opens the event sealed at `position` under `key`.
    /// - Throws: ``SyncError/Code/tampered`` when it fails authentication or cannot be read.
    static func open(_ body: Data, position: Int64, key: CircleKey) throws(SyncError) -> RosterEvent {
        let plain: Data
        do {
            plain = try AES.GCM.open(
                AES.GCM.SealedBox(combined: body), using: key.rosterKey, authenticating: associatedData(position, key))
        } catch {
            throw SyncError.tampered("a membership change that fails authentication")
        }
        guard let event = RecordSealer.unpad(plain).flatMap(RosterEvent.init(encoded:)), event.position == position
        else {
            throw SyncError.tampered("a membership change that cannot be read")
        }
        return event
    }

    private static func associatedData(_ position: Int64, _ key: CircleKey) -> Data {
        var data = label
        data.append(key.circleID.bytes)
        withUnsafeBytes(of: key.generation.bigEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: position.bigEndian) { data.append(contentsOf: $0) }
        return data
    }
}
