import Foundation

/// Where a keychain's database and its device key live.
///
/// The device key is kept outside the data directory, so a copy or backup of the data directory
/// alone decrypts nothing.
///
/// | Setting | Database | Device key |
/// |---|---|---|
/// | `SECURE_STORAGE_HOME=/x` | `/x/data/keychain.db` | `/x/state/device.key` |
/// | default | `$XDG_DATA_HOME/secure-storage/keychain.db` (`~/.local/share/…`) | `$XDG_STATE_HOME/secure-storage/device.key` (`~/.local/state/…`) |
/// | explicit | ``init(databaseURL:deviceKeyURL:runtimeDirectoryURL:)`` | |
/// | test process, no `SECURE_STORAGE_HOME` | `<tmp>/secure-storage-test-keychain.XXXXXX/data/keychain.db` | `…/state/device.key` |
///
/// Unlock sessions (``Keychain/unlock(passphrase:keepingSessionFor:)``) are kept in
/// ``runtimeDirectoryURL``: `$XDG_RUNTIME_DIR/secure-storage` (a per-user tmpfs emptied at
/// logout) when it is set, else `/run/user/<uid>/secure-storage` when systemd-logind made that
/// directory (only root can create it, so no other user can squat it). It must be memory-backed
/// (tmpfs or ramfs) and the user's own, or sessions are refused rather than written to disk or to
/// a shared, predictable place. Where there is neither (a root shell, a container, CI, cron),
/// ``runtimeDirectoryURL`` is `nil` and sessions are kept in the kernel's keyring instead (the
/// user's persistent keyring), which is neither on disk nor writable by other users.
public struct KeychainLocation: Sendable, Hashable, CustomStringConvertible {
    /// The SQLite database holding the items.
    public var databaseURL: URL
    /// The 0600 file holding the device secret.
    public var deviceKeyURL: URL
    /// The 0700 memory-backed directory holding unlock-session tickets; `nil` when there is none,
    /// and then tickets are kept in the kernel keyring.
    /// It is checked (memory-backed, owned by the user) each time a session is written or read.
    public var runtimeDirectoryURL: URL?

    /// A keychain at explicit paths; overrides every environment variable except
    /// `XDG_RUNTIME_DIR` when `runtimeDirectoryURL` is omitted.
    public init(databaseURL: URL, deviceKeyURL: URL, runtimeDirectoryURL: URL? = nil) {
        self.databaseURL = databaseURL
        self.deviceKeyURL = deviceKeyURL
        self.runtimeDirectoryURL =
            runtimeDirectoryURL ?? Self.runtimeDirectory(environment: ProcessInfo.processInfo.environment)
    }

    /// `$XDG_RUNTIME_DIR/secure-storage` when the variable holds an absolute path, else
    /// `/run/user/<uid>/secure-storage` when `/run/user/<uid>` exists, else `nil`. Never a
    /// predictable name in a directory every user can write (such as `/dev/shm`), which another
    /// user could create first.
    static func runtimeDirectory(environment: [String: String]) -> URL? {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return URL(fileURLWithPath: runtime, isDirectory: true).appendingPathComponent("secure-storage")
        }
        let perUser = "/run/user/\(PlatformIO.currentUserID)"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: perUser, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return URL(fileURLWithPath: perUser, isDirectory: true).appendingPathComponent("secure-storage")
    }

    /// A keychain inside one directory, laid out like `SECURE_STORAGE_HOME`:
    /// `data/keychain.db` and `state/device.key`.
    public init(directory: URL) {
        self.init(
            databaseURL: directory.appendingPathComponent("data/keychain.db"),
            deviceKeyURL: directory.appendingPathComponent("state/device.key"))
    }

    /// The default keychain of the current user, as the environment decides — except in a test
    /// process (an XCTest bundle, `swift test`, Swift Testing): without `SECURE_STORAGE_HOME`, a
    /// test process gets a throw-away keychain in a private temporary directory (mode 0700,
    /// removed at exit), never the user's `~/.local/share/secure-storage`, so that the tests of
    /// a package using SecureStorage cannot change the user's real keychain. The directory is
    /// made before `main` and set as `SECURE_STORAGE_HOME`, so every process the test starts
    /// (the `keychain` tool, the app's own executable) uses the same throw-away keychain. When
    /// the process exits, the directory is removed along with the unlock sessions of its
    /// keychains. Set `SECURE_STORAGE_HOME`, or open an explicit location, to choose the keychain
    /// tests use; `SECURE_STORAGE_TEST_KEYCHAIN=user` gives them the user's default keychain.
    public static var `default`: KeychainLocation {
        let environment = ProcessInfo.processInfo.environment
        if TestRunnerKeychain.isChosenHome(environment: environment) {
            _ = TestRunnerKeychain.home  // its unlock tickets go with it at exit
        }
        return resolve(environment: environment)
    }

    /// Whether `KeychainLocation.default` is a test process's throw-away keychain rather than the user's.
    public static var isTestKeychainDefault: Bool {
        TestRunnerKeychain.isChosenHome(environment: ProcessInfo.processInfo.environment)
    }

    /// The default location for a given environment (`SECURE_STORAGE_HOME`, `XDG_DATA_HOME`,
    /// `XDG_STATE_HOME`, `HOME`). Relative XDG paths are ignored, as the XDG spec requires.
    public static func resolve(environment: [String: String]) -> KeychainLocation {
        if let home = environment["SECURE_STORAGE_HOME"], !home.isEmpty {
            let directory = URL(fileURLWithPath: home, isDirectory: true)
            return KeychainLocation(
                databaseURL: directory.appendingPathComponent("data/keychain.db"),
                deviceKeyURL: directory.appendingPathComponent("state/device.key"),
                runtimeDirectoryURL: runtimeDirectory(environment: environment))
        }
        let userHome = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func base(_ variable: String, fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") {
                return URL(fileURLWithPath: value, isDirectory: true)
            }
            return URL(fileURLWithPath: userHome, isDirectory: true).appendingPathComponent(fallback)
        }
        let deviceKey = base("XDG_STATE_HOME", fallback: ".local/state").appendingPathComponent(
            "secure-storage/device.key")
        return KeychainLocation(
            databaseURL: base("XDG_DATA_HOME", fallback: ".local/share").appendingPathComponent(
                "secure-storage/keychain.db"),
            deviceKeyURL: deviceKey,
            runtimeDirectoryURL: runtimeDirectory(environment: environment))
    }

    /// `"<database> (device key <path>)"`.
    public var description: String { "\(databaseURL.path) (device key \(deviceKeyURL.path))" }
}
