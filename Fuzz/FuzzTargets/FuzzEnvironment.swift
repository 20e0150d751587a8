import Foundation
@_spi(Testing) import KeychainCore

/// Throw-away keychains for fuzzing, in a temporary directory of this process that is removed at
/// exit. Never the user's keychain, and nothing global is changed: no environment variables, so
/// fuzzing inside the test process leaves the other tests as they were.
enum FuzzEnvironment {
    static let home: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "keychain-fuzz-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        atexit { try? FileManager.default.removeItem(at: FuzzEnvironment.home) }
        return directory
    }()

    /// A keychain under ``home``, with cheap passphrase hardening.
    static func keychain(_ name: String) -> Keychain {
        do {
            return try Keychain(
                location: KeychainLocation(directory: home.appendingPathComponent(name)),
                options: KeychainOptions(
                    passphraseHardening: .fixed(.insecureForTestingOnly),
                    defaultAccessGroup: "FUZZTEAM.org.example.fuzz"))
        } catch {
            fatalError("cannot open the fuzzing keychain under \(home.path): \(error)")
        }
    }

    /// Deletes every item, so each input starts from the same empty keychain and a crash
    /// reproduces from its input alone.
    static func empty(_ keychain: Keychain) {
        for itemClass in ItemClass.storedClasses {
            _ = try? keychain.delete(Query(itemClass, synchronizable: .any))
        }
    }
}
