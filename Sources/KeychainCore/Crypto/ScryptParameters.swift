import CryptoExtras
import Foundation

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

    /// The floor recommended by OWASP and the design brief: N = 2^17, r = 8, p = 1 (128 MiB).
    public static let floor = ScryptParameters(logN: 17)

    /// Cheap parameters for unit tests only (N = 2^10). Never use them for real keychains:
    /// they make a passphrase about 100 times cheaper to guess.
    public static let insecureForTestingOnly = ScryptParameters(logN: 10)

    /// The memory one derivation needs, in MiB (128 · N · r bytes).
    public var memoryMiB: Int { ((128 * blockSize) << logN) >> 20 }

    /// `"scrypt(N=2^17, r=8, p=1)"`.
    public var description: String { "scrypt(N=2^\(logN), r=\(blockSize), p=\(parallelism))" }

    /// Derives the 32-byte passphrase key K_P.
    func deriveKey(passphrase: String, salt: Data) throws(KeychainError) -> SymmetricKey {
        guard (1...30).contains(logN), blockSize >= 1, parallelism >= 1 else {
            throw KeychainError(.integrityViolation, "The stored passphrase parameters (\(self)) are out of range; the keychain header was modified.")
        }
        var password = Data(passphrase.utf8)
        defer { SecretWiping.wipe(&password) }
        do {
            return try KDF.Scrypt.deriveKey(
                from: password, salt: salt, outputByteCount: 32,
                rounds: 1 << logN, blockSize: blockSize, parallelism: parallelism)
        } catch {
            throw KeychainError(.outOfMemory, "scrypt with \(self) failed; the machine may not have \(memoryMiB) MiB of memory to spare.")
        }
    }
}
