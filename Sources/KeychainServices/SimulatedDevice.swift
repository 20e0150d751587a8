#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// **Linux only.** The state of the device that Keychain code written for iOS assumes — a
/// passcode, enrolled biometry, a user who approves, denies or cancels — so a test suite that
/// stores `WhenPasscodeSetThisDeviceOnly` or user-presence items runs unchanged, without
/// a terminal or a PIN.
///
/// Set in the environment of the process under test:
///
/// ```sh
/// KEYCHAIN_SIMULATED_DEVICE=passcode,biometry=approve swift test
/// KEYCHAIN_SIMULATED_DEVICE=passcode,biometry=cancel swift test --filter BiometryCancelTests
/// KEYCHAIN_SIMULATED_DEVICE_FILE=/tmp/device swift test   # re-read before every prompt
/// ```
///
/// Comma-separated words:
/// - `passcode` (or `passcode=approve|deny|cancel`, the answer to a passcode prompt; default
///   approve): the device has a passcode. Without it, passcode-set items and user presence fail
///   as on a device without one.
/// - `biometry=approve|deny|cancel` (`biometry` alone approves; needs `passcode`, as on Apple
///   devices): biometry is enrolled and the user answers so. `biometry=none` or no word: none.
/// - `biometry-set=NAME` (default `1`): the enrolled identities; a new name is a re-enrolment,
///   after which `biometryCurrentSet` items can never be read again.
/// - `locked`: the device was unlocked once and then locked: `whenUnlocked` items are
///   unavailable, `afterFirstUnlock` ones are not.
///
/// With `KEYCHAIN_SIMULATED_DEVICE_FILE`, the same words are read from that file, and read again
/// before every prompt, so a harness can change the user's answer or re-enrol biometry between
/// tests without touching the suite (the passcode and `locked` are read once).
///
/// The simulated device's keychain is a fresh one in a private temporary directory, removed when
/// the process exits: a simulation never reads or writes a real keychain. It is meant for tests
/// only; its passcode key derivation is deliberately cheap.
public struct SimulatedDevice: Sendable, Hashable, CustomStringConvertible {
    /// How the simulated user answers a prompt.
    public enum Answer: String, Sendable, Hashable {
        case approve, deny, cancel
    }

    /// How the user answers a passcode prompt, or `nil` when the device has no passcode.
    public var passcode: Answer?
    /// How the user answers a biometry prompt, or `nil` when no biometry is enrolled.
    public var biometry: Answer?
    /// The enrolled biometric identities; changing it is a re-enrolment.
    public var biometrySet: String
    /// Whether the device was locked after its first unlock.
    public var isLocked: Bool

    /// The variable naming the device: `KEYCHAIN_SIMULATED_DEVICE`.
    public static let variable = "KEYCHAIN_SIMULATED_DEVICE"
    /// The variable naming a file that holds the words: `KEYCHAIN_SIMULATED_DEVICE_FILE`.
    public static let fileVariable = "KEYCHAIN_SIMULATED_DEVICE_FILE"

    /// Parses the comma-separated words described above.
    /// - Throws: `.invalidParameter` naming an unknown word or an impossible device.
    public init(_ words: String) throws(KeychainError) {
        passcode = nil
        biometry = nil
        biometrySet = "1"
        isLocked = false
        for word in words.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        where !word.isEmpty {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            let value = parts.count == 2 ? parts[1] : nil
            switch (parts[0], value) {
            case ("passcode", nil): passcode = .approve
            case ("passcode", let value?): passcode = try Self.answer(value, in: word)
            case ("biometry", nil): biometry = .approve
            case ("biometry", "none"): biometry = nil
            case ("biometry", let value?): biometry = try Self.answer(value, in: word)
            case ("biometry-set", let value?) where !value.isEmpty: biometrySet = value
            case ("locked", nil): isLocked = true
            default:
                throw KeychainError.simulatedDeviceUnknownWord(variable: Self.variable, word: word)
            }
        }
        if biometry != nil && passcode == nil {
            throw KeychainError.simulatedBiometryWithoutPasscode(variable: Self.variable)
        }
        if isLocked && passcode == nil {
            throw KeychainError.simulatedLockWithoutPasscode(variable: Self.variable)
        }
    }

    private static func answer(_ value: String, in word: String) throws(KeychainError) -> Answer {
        guard let answer = Answer(rawValue: value) else {
            throw KeychainError.simulatedDeviceUnknownAnswer(variable: variable, word: word)
        }
        return answer
    }

    /// The device the environment describes, or `nil` when neither variable is set.
    /// - Throws: `.invalidParameter` for words that do not parse, `.keychainUnavailable` for a
    ///   file that cannot be read.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(KeychainError) -> SimulatedDevice?
    {
        if let path = environment[fileVariable], !path.isEmpty {
            guard let data = FileManager.default.contents(atPath: path), data.count <= 4096,
                let text = String(data: data, encoding: .utf8)
            else {
                throw KeychainError.simulatedDeviceFileUnreadable(fileVariable: fileVariable, path: path)
            }
            return try SimulatedDevice(text)
        }
        guard let words = environment[variable] else { return nil }
        return try SimulatedDevice(words)
    }

    /// The words that describe this device.
    public var description: String {
        var words: [String] = []
        if let passcode { words.append("passcode=\(passcode.rawValue)") }
        if let biometry { words.append("biometry=\(biometry.rawValue)") }
        if biometry != nil { words.append("biometry-set=\(biometrySet)") }
        if isLocked { words.append("locked") }
        return words.joined(separator: ",")
    }
}
#endif
