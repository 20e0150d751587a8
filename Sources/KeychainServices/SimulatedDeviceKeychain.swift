#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
@_spi(Testing) import KeychainCore
import SecureStorageFoundation

/// The keychain and authenticator of a ``SimulatedDevice``: a fresh keychain in a private
/// temporary directory (removed at exit), with a random passphrase standing for the passcode,
/// and an authenticator that answers as the device's user does.
enum SimulatedDeviceKeychain {
    /// The directories to remove when the process exits.
    private static let directories = Locked<[String]>([])

    /// Creates the keychain `device` describes.
    static func make(for device: SimulatedDevice) throws(KeychainError) -> Keychain {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "secure-storage-simulated-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw KeychainError.simulatedDeviceDirectoryCreationFailed(
                directory: directory.path, reason: error.localizedDescription)
        }
        let isFirst = directories.withLock { directories in
            directories.append(directory.path)
            return directories.count == 1
        }
        if isFirst { atexit { SimulatedDeviceKeychain.removeDirectories() } }

        let keychain = try Keychain(
            location: KeychainLocation(directory: directory),
            options: KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly)))
        guard device.passcode != nil else { return keychain }
        try keychain.setPassphrase(Data((0..<24).map { _ in UInt8.random(in: 0...255) }).base64EncodedString())
        let authenticator = SimulatedAuthenticator(device: device)
        keychain.authenticator = authenticator
        try authenticator.enroll(in: keychain)
        if device.isLocked { try keychain.lock() }
        return keychain
    }

    private static func removeDirectories() {
        for path in directories.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// Answers prompts as a ``SimulatedDevice``'s user: its biometry and passcode secrets are
/// enrolled in the keychain, and an approval releases them. With
/// `KEYCHAIN_SIMULATED_DEVICE_FILE`, the answers and the enrolled biometry are read again before
/// every prompt.
final class SimulatedAuthenticator: Authenticator {
    private let initial: SimulatedDevice
    private let secrets: [AuthenticationMethod: AuthenticationSecret]

    init(device: SimulatedDevice) {
        initial = device
        var secrets: [AuthenticationMethod: AuthenticationSecret] = [:]
        for method in AuthenticationMethod.allCases {
            secrets[method] = try! AuthenticationSecret(
                identifier: Data((0..<16).map { _ in UInt8.random(in: 0...255) }),
                keyMaterial: SymmetricKey(size: .bits256))
        }
        self.secrets = secrets
    }

    /// The device now: the file's words when one is named (the passcode is the first reading's).
    private var device: SimulatedDevice {
        guard ProcessInfo.processInfo.environment[SimulatedDevice.fileVariable] != nil,
            var current = try? SimulatedDevice.fromEnvironment()
        else { return initial }
        current.passcode = current.passcode ?? initial.passcode
        return current
    }

    /// Enrols the passcode and the biometry hardware (whether or not biometry is enrolled yet:
    /// the file may enrol it later).
    func enroll(in keychain: Keychain) throws(KeychainError) {
        try keychain.enroll(secrets[.passcode]!, for: .passcode)
        try keychain.enroll(secrets[.biometry]!, for: .biometry, authorizedBy: (.passcode, secrets[.passcode]!))
    }

    var availableMethods: Set<AuthenticationMethod> {
        let device = self.device
        return Set(
            [device.passcode.map { _ in AuthenticationMethod.passcode }, device.biometry.map { _ in .biometry }]
                .compactMap { $0 })
    }

    var enrollmentState: Data? {
        let device = self.device
        return device.biometry == nil ? nil : Data("simulated-biometry:\(device.biometrySet)".utf8)
    }

    func enrollmentIdentifier(for method: AuthenticationMethod) -> Data? { secrets[method]?.identifier }

    func authenticate(_ request: AuthenticationRequest) -> AuthenticationOutcome {
        let device = self.device
        let (method, answer): (AuthenticationMethod, SimulatedDevice.Answer?) =
            request.allowedMethods.contains(.biometry) && device.biometry != nil
            ? (.biometry, device.biometry) : (.passcode, device.passcode)
        guard request.allowedMethods.contains(method), let answer else { return .failed }
        switch answer {
        case .approve: return .authenticated(method, secrets[method]!)
        case .deny: return .failed
        case .cancel: return .canceled
        }
    }
}
#endif
