import Foundation

/// How hard a passphrase is made to guess when it is set or changed.
///
/// ```swift
/// // The default: about half a second per guess on this machine, 128 MiB of memory.
/// let keychain = try Keychain(options: KeychainOptions(passphraseHardening: .calibrated()))
/// // Tests (`@_spi(Testing) import KeychainCore`): fast and deliberately weak.
/// let options = KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly))
/// ```
public enum PassphraseHardening: Sendable, Hashable {
    /// Keep N at the memory budget `2^memoryLogN` and raise p until one derivation takes at
    /// least `target` on this machine (never below ``ScryptParameters/floor``).
    case calibrated(target: Duration = .milliseconds(500), memoryLogN: Int = 17)
    /// Use exactly these parameters.
    case fixed(ScryptParameters)

    /// The parameters to use for a new passphrase on this machine.
    ///
    /// Calibration times the base parameters twice and keeps the faster run: the first
    /// derivation also pays for faulting in its memory, so timing it alone overstates the cost
    /// and would make every later unlock cheaper than `target`.
    func parameters() throws(KeychainError) -> ScryptParameters {
        switch self {
        case .fixed(let parameters):
            return parameters
        case .calibrated(let target, let memoryLogN):
            let base = ScryptParameters(logN: max(memoryLogN, ScryptParameters.floor.logN))
            let fastest = try min(base.timeOneDerivation(), base.timeOneDerivation())
            let ratio = target / max(fastest, .milliseconds(1))
            return ScryptParameters(
                logN: base.logN, blockSize: base.blockSize,
                parallelism: max(1, min(64, Int(ratio.rounded(.up)))))
        }
    }
}

extension ScryptParameters {
    /// How long one derivation with these parameters takes on this machine.
    fileprivate func timeOneDerivation() throws(KeychainError) -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        _ = try deriveKey(passphrase: "calibration", salt: Data(count: 16))
        return clock.now - start
    }
}
