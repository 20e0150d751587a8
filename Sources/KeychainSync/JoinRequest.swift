import Crypto
import Foundation
import SecureStorageFoundation

/// What a joining device files on the server, and the answer a member gives it.
///
/// The joining device makes a random **approval code** and shows it to its user, who types it
/// on a member (`keychain sync approve`); the server never sees it. Everything else is bound to
/// that code:
/// - The request body is `agreement key (32) ‖ signing key (32) ‖ sealed name`: the name is
///   AES-256-GCM under a key derived from the code, with both public keys as associated data, so
///   a member finds the request its user's code opens, and the server can neither read the name
///   nor put keys of its own in the request.
/// - The answer is `wrapped circle key ‖ roster count (8) ‖ roster head (32) ‖ HMAC-SHA256 (32)`,
///   the MAC under a key derived from the code: the joining device accepts a key only from the
///   member its user typed the code on. Neither the server nor a device removed from the circle
///   (which may know an old circle code) can answer in that member's place.
struct JoinRequest: Sendable {
    /// The joining device's id.
    var requestID: UUID
    /// Its X25519 public key (raw).
    var agreementKey: Data
    /// Its Ed25519 public key (raw).
    var signingKey: Data
    /// Its name.
    var name: String

    /// A request with these parts.
    init(requestID: UUID, agreementKey: Data, signingKey: Data, name: String) {
        self.requestID = requestID
        self.agreementKey = agreementKey
        self.signingKey = signingKey
        self.name = name
    }

    /// The body to file, sealed under `approvalCode`.
    func body(circleID: UUID, approvalCode: String) throws(SyncError) -> Data {
        do {
            // The key is this request's alone and only ever seals this name, so a fixed nonce is
            // safe, and filing the request again files the same body.
            let sealed = try AES.GCM.seal(
                Data(name.utf8), using: Self.key("name", circleID, requestID, approvalCode),
                nonce: AES.GCM.Nonce(data: Data(count: 12)),
                authenticating: Self.associatedData(circleID, requestID, agreementKey + signingKey))
            return agreementKey + signingKey + sealed.combined!
        } catch {
            throw SyncError.joinRequestSealingFailed
        }
    }

    /// Reads a filed body with the approval code a member's user typed; `nil` when the code does
    /// not open it (another device's request, or keys the server swapped in).
    init?(body: Data, requestID: UUID, circleID: UUID, approvalCode: String) {
        let bytes = Data(body)
        guard bytes.count > 64 + 28,
            let plain = try? AES.GCM.open(
                AES.GCM.SealedBox(combined: bytes[64...]), using: Self.key("name", circleID, requestID, approvalCode),
                authenticating: Self.associatedData(circleID, requestID, Data(bytes[0..<64]))),
            let name = String(data: plain, encoding: .utf8),
            (try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes[0..<32])) != nil,
            (try? Curve25519.Signing.PublicKey(rawRepresentation: bytes[32..<64])) != nil
        else { return nil }
        self.init(requestID: requestID, agreementKey: Data(bytes[0..<32]), signingKey: Data(bytes[32..<64]), name: name)
    }

    // MARK: - The answer

    /// A member's answer: the wrapped key and the roster it admitted the device in, MAC'd under the code.
    static func answer(wrap: Data, roster pin: Roster.Pin, circleID: UUID, requestID: UUID, approvalCode: String)
        -> Data
    {
        var body = ByteWriter()
        body.append(wrap)
        body.append(bigEndian: UInt64(bitPattern: pin.count))
        body.append(pin.head)
        let mac = HMAC<SHA256>.authenticationCode(
            for: associatedData(circleID, requestID, body.data), using: key("answer", circleID, requestID, approvalCode)
        )
        body.append(Data(mac))
        return body.data
    }

    /// Opens an answer made with this device's approval code.
    /// - Throws: ``SyncError/Code/tampered`` when its MAC does not verify: the member the code
    ///   was typed on did not make it.
    static func openAnswer(_ answer: Data, circleID: UUID, requestID: UUID, approvalCode: String) throws(SyncError) -> (
        wrap: Data, roster: Roster.Pin
    ) {
        let bytes = Data(answer)
        guard bytes.count > 72 else { throw SyncError.tampered("an answer to the join request of the wrong size") }
        let signed = Data(bytes.prefix(bytes.count - 32))
        guard
            HMAC<SHA256>.isValidAuthenticationCode(
                Data(bytes.suffix(32)), authenticating: associatedData(circleID, requestID, signed),
                using: key("answer", circleID, requestID, approvalCode))
        else {
            throw SyncError.tampered(
                "an answer to the join request that the member given the approval code did not make (the server or a removed device answered)"
            )
        }
        var input = ByteReader(signed)
        guard let wrap = input.readBytes(signed.count - 40), let count = input.readBigEndian(UInt64.self),
            let head = input.readBytes(32), input.isAtEnd
        else {
            throw SyncError.tampered("an answer to the join request that cannot be read")
        }
        return (Data(wrap), Roster.Pin(count: Int64(bitPattern: count), head: Data(head)))
    }

    private static func key(_ purpose: String, _ circleID: UUID, _ requestID: UUID, _ approvalCode: String)
        -> SymmetricKey
    {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(CircleCode.normalized(approvalCode).utf8)), salt: circleID.bytes,
            info: Data("keychain-sync join \(purpose)".utf8) + requestID.bytes, outputByteCount: 32)
    }

    private static func associatedData(_ circleID: UUID, _ requestID: UUID, _ content: Data) -> Data {
        Data("keychain-sync join request 2".utf8) + circleID.bytes + requestID.bytes + content
    }
}
