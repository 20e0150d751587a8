@_spi(Testing) import KeychainCore

/// The passphrase the rotation workloads use at step `index` (shared by `keychain-stress` and
/// RotationStressTests).
public func rotationPassphrase(_ index: Int) -> String { "rotation-passphrase-\(index)" }

/// Options of the rotation workloads: cheap scrypt, so a rotation costs the rewrapping, not the KDF.
public let rotationOptions = KeychainOptions(
    passphraseHardening: .fixed(.insecureForTestingOnly), resumesUnlockSession: false)

/// ``rotationOptions`` with a TPM (the bind workloads).
public func rotationOptions(tpm: TPMDevice) -> KeychainOptions {
    KeychainOptions(
        passphraseHardening: .fixed(.insecureForTestingOnly), resumesUnlockSession: false, tpm: tpm,
        newKeychainBinding: .keyFile)
}
