import Crypto
import Foundation

/// What a ``PINAuthenticator`` keeps on disk: the scrypt parameters and salt, a verifier (an
/// HMAC keyed by the scrypt output, so the file holds nothing from which the PIN can be checked
/// without paying the KDF), and the failure count with the time of the last failure.
///
/// Layout: `"SSPN"`, version 1, logN, r, p (one byte each), salt (16), verifier (32),
/// failures (UInt32 big-endian), last failure (seconds since 2001, Float64 bits big-endian).
struct PINVerifierRecord: Equatable {
    var parameters: ScryptParameters
    var salt: Data
    var verifier: Data
    var failures: Int
    var lastFailure: Date?

    private static let magic = Data("SSPN".utf8)
    private static let version: UInt8 = 1
    static let byteCount = 4 + 1 + 3 + 16 + 32 + 4 + 8
    private static let context = Data("SecureStorage PIN verifier v1".utf8)

    /// A record for a new PIN, with a fresh salt and no failures.
    init(pin: String, parameters: ScryptParameters) throws(KeychainError) {
        self.parameters = parameters
        salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        verifier = Data()
        failures = 0
        lastFailure = nil
        verifier = try Self.verifier(pin: pin, parameters: parameters, salt: salt)
    }

    private static func verifier(pin: String, parameters: ScryptParameters, salt: Data) throws(KeychainError) -> Data {
        let key = try parameters.deriveKey(passphrase: pin, salt: salt)
        return Data(HMAC<SHA256>.authenticationCode(for: context, using: key))
    }

    /// Whether `pin` is the PIN (pays the KDF; compares in constant time).
    func matches(_ pin: String) throws(KeychainError) -> Bool {
        let key = try parameters.deriveKey(passphrase: pin, salt: salt)
        return HMAC<SHA256>.isValidAuthenticationCode(verifier, authenticating: Self.context, using: key)
    }

    var encoded: Data {
        var bytes = Self.magic
        bytes.append(Self.version)
        bytes.append(contentsOf: [UInt8(parameters.logN), UInt8(parameters.blockSize), UInt8(parameters.parallelism)])
        bytes.append(salt)
        bytes.append(verifier)
        withUnsafeBytes(of: UInt32(clamping: failures).bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: (lastFailure?.timeIntervalSinceReferenceDate ?? 0).bitPattern.bigEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    init(encoded bytes: Data, path: String) throws(KeychainError) {
        let bytes = Array(bytes)
        guard bytes.count == Self.byteCount, Data(bytes[0..<4]) == Self.magic, bytes[4] == Self.version else {
            throw KeychainError(.integrityViolation, "The PIN file \(path) is damaged or not a PIN file. Restore it, or delete it and set the PIN again.")
        }
        parameters = ScryptParameters(logN: Int(bytes[5]), blockSize: Int(bytes[6]), parallelism: Int(bytes[7]))
        try parameters.requireWithinBounds(in: "the PIN file \(path)")
        salt = Data(bytes[8..<24])
        verifier = Data(bytes[24..<56])
        failures = Int(bytes[56..<60].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let seconds = Double(bitPattern: bytes[60..<68].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        lastFailure = failures == 0 || !seconds.isFinite ? nil : Date(timeIntervalSinceReferenceDate: seconds)
    }
}
