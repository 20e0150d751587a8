import Crypto
import Foundation

/// What a ``PINAuthenticator`` keeps on disk: the scrypt parameters and salt, the identifier of
/// the PIN's enrolment in the keychain, a verifier (an HMAC keyed by the scrypt output, so the
/// file holds nothing from which the PIN can be checked without paying the KDF), and the
/// failure count with the time of the last failure.
///
/// The secret the PIN releases is HKDF(scrypt output, info: "SecureStorage PIN release v2" ‖
/// identifier): independent of the verifier, and found only by paying the KDF for each guess.
///
/// Layout, version 2: `"SSPN"`, 2, logN, r, p (one byte each), salt (16), enrolment identifier
/// (16), verifier (32), failures (UInt32 big-endian), last failure (seconds since 2001, Float64
/// bits big-endian). Version 1 (written before PINs were enrolled) has no identifier.
struct PINVerifierRecord: Equatable {
    var parameters: ScryptParameters
    var salt: Data
    /// The enrolment identifier; `nil` in a version-1 file.
    var identifier: Data?
    var verifier: Data
    var failures: Int
    var lastFailure: Date?

    private static let magic = Data("SSPN".utf8)
    /// The size of a version-2 file, the largest there is.
    static let byteCount = 4 + 1 + 3 + 16 + 16 + 32 + 4 + 8
    private static let legacyByteCount = byteCount - 16
    private static let context = Data("SecureStorage PIN verifier v1".utf8)
    /// What a version-1 file's secret is identified by (no keychain ever enrolled it).
    private static let legacyIdentifier = Data(count: 16)

    /// A record for a new PIN, with a fresh salt, a fresh enrolment identifier and no failures,
    /// and the secret the PIN releases.
    static func new(pin: String, parameters: ScryptParameters) throws(KeychainError) -> (
        PINVerifierRecord, AuthenticationSecret
    ) {
        let salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        let identifier = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        let key = try parameters.deriveKey(passphrase: pin, salt: salt)
        let record = PINVerifierRecord(
            parameters: parameters, salt: salt, identifier: identifier,
            verifier: Data(HMAC<SHA256>.authenticationCode(for: context, using: key)), failures: 0, lastFailure: nil)
        return (record, try record.secret(from: key))
    }

    private init(
        parameters: ScryptParameters, salt: Data, identifier: Data?, verifier: Data, failures: Int, lastFailure: Date?
    ) {
        self.parameters = parameters
        self.salt = salt
        self.identifier = identifier
        self.verifier = verifier
        self.failures = failures
        self.lastFailure = lastFailure
    }

    /// The secret `pin` releases when it is the PIN (pays the KDF; compares in constant time);
    /// `nil` when it is not.
    func secret(ifMatching pin: String) throws(KeychainError) -> AuthenticationSecret? {
        let key = try parameters.deriveKey(passphrase: pin, salt: salt)
        guard HMAC<SHA256>.isValidAuthenticationCode(verifier, authenticating: Self.context, using: key) else {
            return nil
        }
        return try secret(from: key)
    }

    private func secret(from key: SymmetricKey) throws(KeychainError) -> AuthenticationSecret {
        let identifier = identifier ?? Self.legacyIdentifier
        let material = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, info: Data("SecureStorage PIN release v2".utf8) + identifier, outputByteCount: 32)
        return try AuthenticationSecret(identifier: identifier, keyMaterial: material)
    }

    var encoded: Data {
        var bytes = Self.magic
        bytes.append(identifier == nil ? 1 : 2)
        bytes.append(contentsOf: [UInt8(parameters.logN), UInt8(parameters.blockSize), UInt8(parameters.parallelism)])
        bytes.append(salt)
        if let identifier { bytes.append(identifier) }
        bytes.append(verifier)
        withUnsafeBytes(of: UInt32(clamping: failures).bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: (lastFailure?.timeIntervalSinceReferenceDate ?? 0).bitPattern.bigEndian) {
            bytes.append(contentsOf: $0)
        }
        return bytes
    }

    init(encoded bytes: Data, path: String) throws(KeychainError) {
        let bytes = Array(bytes)
        let version: UInt8? = bytes.count >= 5 && Data(bytes[0..<4]) == Self.magic ? bytes[4] : nil
        guard (version == 1 && bytes.count == Self.legacyByteCount) || (version == 2 && bytes.count == Self.byteCount)
        else {
            throw KeychainError.pinFileDamaged(path: path)
        }
        parameters = ScryptParameters(logN: Int(bytes[5]), blockSize: Int(bytes[6]), parallelism: Int(bytes[7]))
        try parameters.requireWithinBounds(in: "the PIN file \(path)")
        salt = Data(bytes[8..<24])
        var offset = 24
        if version == 2 {
            identifier = Data(bytes[24..<40])
            offset = 40
        }
        verifier = Data(bytes[offset..<offset + 32])
        failures = Int(bytes[offset + 32..<offset + 36].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let seconds = Double(bitPattern: bytes[offset + 36..<offset + 44].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        // A failure time that is not a number fails closed: it is taken as later than now, and
        // the authenticator then counts the wait from now.
        lastFailure =
            failures == 0
            ? nil : Date(timeIntervalSinceReferenceDate: seconds.isFinite ? seconds : .greatestFiniteMagnitude)
    }
}
