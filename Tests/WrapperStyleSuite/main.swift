// A Keychain wrapper's integration suite, written the way iOS wrappers (Valet, KeychainAccess)
// write theirs: SecItem and LocalAuthentication calls only, nothing that knows it runs on Linux.
// SimulatedDeviceSuiteTests runs it unchanged under several KEYCHAIN_SIMULATED_DEVICE settings
// and checks each step's status. Prints one "step status" line per step.
import Foundation
import KeychainServices
#if canImport(LocalAuthentication) && !SECURE_STORAGE_FORCE_PORTABLE
import LocalAuthentication  // LAContext; on Linux KeychainServices provides it
#endif

func status(_ body: () -> OSStatus) -> OSStatus { body() }

func add(_ account: String, _ secret: String, _ extra: [String: Any]) -> OSStatus {
    var query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "wrapper-suite",
        kSecAttrAccount as String: account, kSecValueData as String: Data(secret.utf8)
    ]
    query.merge(extra) { $1 }
    return SecItemAdd(query as CFDictionary, nil)
}

func read(_ account: String, context: LAContext? = nil) -> (OSStatus, String?) {
    var query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "wrapper-suite",
        kSecAttrAccount as String: account, kSecReturnData as String: true
    ]
    if let context { query[kSecUseAuthenticationContext as String] = context }
    var result: CFTypeRef?
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    return (status, (result as? Data).map { String(decoding: $0, as: UTF8.self) })
}

func report(_ step: String, _ status: OSStatus) {
    // Unbuffered: a harness reads the lines as they come.
    FileHandle.standardOutput.write(Data("\(step) \(status)\n".utf8))
}

// Plain items.
report("add-whenUnlocked", add("plain", "v1", [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]))
report("read-whenUnlocked", read("plain").0)
report(
    "add-afterFirstUnlock", add("background", "v1", [kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock]))
report("read-afterFirstUnlock", read("background").0)

// Passcode-set items.
report(
    "add-passcodeSet",
    add("passcode", "v1", [kSecAttrAccessible as String: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly]))

// User presence, read through a context with a reason.
let presence = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence, nil)!
report("add-userPresence", add("presence", "v1", [kSecAttrAccessControl as String: presence]))
let context = LAContext()
context.localizedReason = "Read the wrapper suite's secret"
let (presenceStatus, presenceValue) = read("presence", context: context)
report("read-userPresence", presenceStatus == errSecSuccess && presenceValue != "v1" ? -1 : presenceStatus)

// Biometry bound to the current enrolment.
let currentSet = SecAccessControlCreateWithFlags(
    nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, nil)!
report("add-biometryCurrentSet", add("biometry", "v1", [kSecAttrAccessControl as String: currentSet]))
if CommandLine.arguments.contains("--wait-before-biometry-read") {
    _ = readLine()  // the harness re-enrols biometry here
}
report("read-biometryCurrentSet", read("biometry").0)

// LocalAuthentication.
var error: NSError?
let canUseBiometry = LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
report("canEvaluate-biometrics", canUseBiometry ? 0 : OSStatus(error?.code ?? 1))
let evaluated = LAContext()
let semaphore = DispatchSemaphore(value: 0)
nonisolated(unsafe) var evaluation: OSStatus = 1
evaluated.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Sign in") { success, error in
    evaluation = success ? 0 : OSStatus((error as NSError?)?.code ?? 1)
    semaphore.signal()
}
semaphore.wait()
report("evaluate-deviceOwner", evaluation)
