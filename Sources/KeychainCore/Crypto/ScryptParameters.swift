import CSystemLibcrypto
import CryptoExtras
import Foundation
import SecureStorageFoundation

/// Cost parameters of the scrypt passphrase KDF, stored in the keychain header.
public struct ScryptParameters: Sendable, Hashable, CustomStringConvertible {
    /// log2 of N, the CPU/memory cost. Memory used is 128 · N · r bytes.
    public var logN: Int
    /// r, the block size.
    public var blockSize: Int
    /// p, the number of sequential repetitions (raises time without raising memory).
    public var parallelism: Int

    /// Creates parameters.
    public init(logN: Int, blockSize: Int = 8, parallelism: Int = 1) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// The floor recommended by OWASP: N = 2^17, r = 8, p = 1 (128 MiB).
    public static let floor = ScryptParameters(logN: 17)

    /// Cheap parameters for unit tests only (N = 2^10). Never use them for real keychains:
    /// they make a passphrase about 100 times cheaper to guess. Visible only to code that
    /// imports KeychainCore with `@_spi(Testing) import KeychainCore`.
    @_spi(Testing) public static let insecureForTestingOnly = ScryptParameters(logN: 10)

    /// The memory one derivation needs, in MiB (128 · N · r bytes).
    public var memoryMiB: Int { ((128 * blockSize) << logN) >> 20 }

    /// `"scrypt(N=2^17, r=8, p=1)"`.
    public var description: String { "scrypt(N=2^\(logN), r=\(blockSize), p=\(parallelism))" }

    /// The largest parameters any keychain, PIN file or backup may ask for. Stored parameters
    /// come from files an attacker may have written, so they are checked against these bounds
    /// before scrypt runs: without them a forged header could make every unlock take hours
    /// (p = 100000), allocate gigabytes (log N = 22) or overflow (r = 2^57).
    ///
    /// - log N from 10 to 20, r from 1 to 16, p from 1 to 64;
    /// - memory 128 · N · r at most 1 GiB;
    /// - work N · r · p at most 2^27 (128 times the ``floor``; calibration stays within 64 times
    ///   it, and backups written by earlier versions within 128 times: about 45 s here).
    public static let bounds = (logN: 10...20, blockSize: 1...16, parallelism: 1...64, memoryMiB: 1024, workLog2: 27)

    /// Whether the parameters are inside ``bounds``. Checked without overflow: each factor is
    /// range-checked before any product is formed.
    public var isWithinBounds: Bool {
        guard Self.bounds.logN.contains(logN), Self.bounds.blockSize.contains(blockSize),
            Self.bounds.parallelism.contains(parallelism)
        else { return false }
        return memoryMiB <= Self.bounds.memoryMiB && (blockSize * parallelism) << logN <= 1 << Self.bounds.workLog2
    }

    /// Throws `.integrityViolation` naming `source` when the parameters are outside ``bounds``.
    func requireWithinBounds(in source: String) throws(KeychainError) {
        guard isWithinBounds else {
            throw KeychainError.storedPassphraseParametersOutOfBounds(
                source: source, parameters: self, memoryLimitMiB: Self.bounds.memoryMiB,
                workLimitLog2: Self.bounds.workLog2)
        }
    }

    /// Derives the 32-byte passphrase key K_P. Parameters outside ``bounds`` are refused before scrypt runs.
    func deriveKey(passphrase: String, salt: Data) throws(KeychainError) -> SymmetricKey {
        try requireWithinBounds(in: "the keychain")
        var password = Data(passphrase.utf8)
        defer { SecretWiping.wipe(&password) }
        if let key = Self.deriveWithSystemLibrary(
            password: password, salt: salt, outputByteCount: 32,
            logN: logN, blockSize: blockSize, parallelism: parallelism)
        {
            return key
        }
        do {
            return try KDF.Scrypt.deriveKey(
                from: password, salt: salt, outputByteCount: 32,
                rounds: 1 << logN, blockSize: blockSize, parallelism: parallelism)
        } catch {
            throw KeychainError.scryptFailed(parameters: self, memoryMiB: memoryMiB)
        }
    }

    /// scrypt from the system's OpenSSL 3 libcrypto (CSystemLibcrypto), or `nil` when it is
    /// unavailable or fails, and the caller uses swift-crypto's BoringSSL. Both are RFC 7914: the
    /// same key bytes (SystemScryptTests). The system's library is always compiled optimised,
    /// while BoringSSL is compiled with the package that depends on this one: unoptimised in
    /// its debug builds, where one derivation of the floor takes 2–3 s of CPU instead of 0.4 s.
    package static func deriveWithSystemLibrary(
        password: Data, salt: Data, outputByteCount: Int,
        logN: Int, blockSize: Int, parallelism: Int
    ) -> SymmetricKey? {
        guard (0..<63).contains(logN), blockSize > 0, parallelism > 0, outputByteCount > 0,
            let r = UInt32(exactly: blockSize), let p = UInt32(exactly: parallelism)
        else { return nil }
        var output = [UInt8](repeating: 0, count: outputByteCount)
        defer { SecretWiping.wipe(&output) }
        let derived = password.withUnsafeBytes { password in
            salt.withUnsafeBytes { salt in
                output.withUnsafeMutableBytes { output in
                    csystemscrypt_derive(
                        password.bindMemory(to: UInt8.self).baseAddress, password.count,
                        salt.bindMemory(to: UInt8.self).baseAddress, salt.count,
                        UInt64(1) << UInt64(logN), r, p,
                        output.bindMemory(to: UInt8.self).baseAddress, output.count)
                }
            }
        }
        return derived == 1 ? SymmetricKey(data: output) : nil
    }

    /// The system library scrypt uses (its path), or why it uses swift-crypto's BoringSSL instead.
    package static var systemLibraryDescription: (available: Bool, description: String) {
        (csystemscrypt_available() == 1, String(cString: csystemscrypt_description()))
    }
}
