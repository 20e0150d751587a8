import Foundation

/// What keeps a keychain's device secret, and so what a copy of its files needs to open.
///
/// ```swift
/// let keychain = try Keychain()
/// if case .tpm(let device, let pcrs) = keychain.deviceBinding {
///     print("sealed by the TPM at \(device)", pcrs.isEmpty ? "" : "to PCRs \(pcrs)")
/// }
/// ```
public enum DeviceBinding: Sendable, Hashable, CustomStringConvertible {
    /// The device secret is in a 0600 file outside the data directory: whoever copies that file
    /// and the database can open every item that needs no passphrase, on any machine.
    case keyFile
    /// The device secret is sealed by a TPM 2.0: the file beside the database holds only a blob
    /// that this machine's TPM alone can unseal (and only while the listed PCRs, SHA-256 bank,
    /// hold the values they had at binding, when there are any).
    case tpm(device: TPMDevice, pcrs: [Int])

    /// Whether the device secret is held by secure hardware (`isProtectedBySecureHardware`):
    /// bound to a TPM that is not a software simulator (``TPMDevice/isSimulator``).
    public var isProtectedBySecureHardware: Bool {
        if case .tpm(let device, _) = self { return !device.isSimulator }
        return false
    }

    /// `key file`, or `TPM (<tcti>)` (`software TPM (…)` for a simulator) with its PCRs.
    public var description: String {
        switch self {
        case .keyFile: "key file"
        case .tpm(let device, let pcrs):
            "\(device.isSimulator ? "software TPM" : "TPM") (\(device.tcti))"
                + (pcrs.isEmpty ? "" : ", sealed to PCR \(pcrs.map(String.init).joined(separator: ","))")
        }
    }
}

/// Whether a new keychain's device secret is sealed by a TPM (``KeychainOptions/newKeychainBinding``).
public enum NewKeychainBinding: Sendable, Hashable {
    /// Sealed by ``KeychainOptions/tpm`` when there is one; a key file (logged) when there is
    /// none, or it cannot be reached, or its owner hierarchy has a password. Any other TPM
    /// failure fails the creation (`.keychainUnavailable`) rather than leave the keychain
    /// unbound. The default.
    case automatic
    /// Always a key file (`keychain bind --tpm` can seal it later).
    case keyFile
    /// Sealed by ``KeychainOptions/tpm``, or the keychain is not created (`.keychainUnavailable`).
    case tpm

    /// The environment variable that sets the default: `required` (``tpm``), `key-file`
    /// (``keyFile``) or `automatic`. For administrators who want every keychain of a service
    /// bound to the TPM, or none.
    public static let environmentVariable = "SECURE_STORAGE_TPM_BINDING"

    /// The choice `SECURE_STORAGE_TPM_BINDING` makes; ``automatic`` when it is unset or unknown.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> NewKeychainBinding
    {
        switch environment[environmentVariable]?.lowercased() {
        case "required", "tpm": .tpm
        case "key-file", "keyfile", "off": .keyFile
        default: .automatic
        }
    }
}
