import Foundation
import XCTest

/// Makes GNOME Keyring keyring files with the real gnome-keyring-daemon: a private D-Bus session
/// (`dbus-run-session`), the daemon started with `--unlock --components=secrets --foreground`
/// and the keyring password on its standard input (so it creates `login.keyring` with that
/// password in `$XDG_DATA_HOME/keyrings`), items stored with `secret-tool store` and Python's
/// secretstorage (`SECURE_STORAGE_PYTHON`, a venv's python with secretstorage), then the daemon
/// stopped, which leaves the file as the daemon wrote it.
///
/// The recipe, found by hand: headless, the daemon creates and unlocks `login` only when given a
/// non-empty password (an empty one, or CreateCollection, needs the GTK prompter and fails
/// without a display); it is ready once `org.freedesktop.secrets` has an owner on the bus.
///
/// When a program is missing the test fails under `REQUIRE_DBUS=1` and is skipped otherwise.
struct GnomeKeyringDaemon {
    /// The `XDG_DATA_HOME` the daemon wrote into.
    let dataHome: URL
    /// `dataHome/keyrings`.
    var keyringsDirectory: URL { dataHome.appendingPathComponent("keyrings") }
    /// The login keyring's file.
    var loginKeyring: URL { keyringsDirectory.appendingPathComponent("login.keyring") }

    /// The programs the recipe needs, by absolute path, or a failure/skip naming the missing one.
    static func requirePrograms() throws -> (programs: [String: String], python: String) {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        var programs: [String: String] = [:]
        for name in ["dbus-run-session", "dbus-send", "gnome-keyring-daemon", "secret-tool"] {
            let found = path.split(separator: ":").map { "\($0)/\(name)" }
                .first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let found else { throw missing("\(name) is not installed") }
            programs[name] = found
        }
        guard let python = ProcessInfo.processInfo.environment["SECURE_STORAGE_PYTHON"],
            FileManager.default.isExecutableFile(atPath: python)
        else {
            throw missing("SECURE_STORAGE_PYTHON does not name a python with secretstorage")
        }
        return (programs, python)
    }

    private static func missing(_ what: String) -> Error {
        let message = "\(what): the GNOME Keyring migration tests need a real gnome-keyring-daemon."
        if ProcessInfo.processInfo.environment["REQUIRE_DBUS"] != nil {
            XCTFail(message)
            return XCTSkip("failed: \(message)")
        }
        return XCTSkip(message)
    }

    /// Starts a daemon in `directory` (a fresh private directory), which creates `login.keyring`
    /// with `password`; runs `shell` (commands that may use secret-tool) and then the Python
    /// `items` (which may use `collection`, the unlocked login keyring); stops the daemon.
    static func populate(in directory: URL, password: String, shell: String, items: String) throws
        -> GnomeKeyringDaemon
    {
        let (_, python) = try requirePrograms()
        let manager = FileManager.default
        for name in ["home", "data", "run", "config", "cache"] {
            try manager.createDirectory(
                at: directory.appendingPathComponent(name), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        func write(_ name: String, _ text: String) -> String {
            let url = directory.appendingPathComponent(name)
            manager.createFile(atPath: url.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
            return url.path
        }
        let passwordFile = write("daemon-password", password)  // no newline: the daemon reads to EOF
        let itemsFile = write(
            "items.py",
            """
            import secretstorage
            connection = secretstorage.dbus_init()
            collection = secretstorage.get_default_collection(connection)
            if collection.is_locked():
                raise SystemExit("the login keyring is locked")

            """ + items)
        let script = write(
            "populate.sh",
            """
            set -e
            gnome-keyring-daemon --unlock --components=secrets --foreground <"$GK_PASSWORD_FILE" >"$GK_LOG" 2>&1 &
            daemon=$!
            i=0
            until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \\
                org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; do
              i=$((i + 1))
              if [ "$i" -ge 400 ]; then echo "gnome-keyring-daemon did not start" >&2; kill "$daemon"; exit 1; fi
              sleep 0.05
            done
            \(shell)
            "$GK_PYTHON" "$GK_ITEMS"
            kill "$daemon"
            wait "$daemon" || true

            """)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["dbus-run-session", "--", "sh", script]
        var environment = ProcessInfo.processInfo.environment
        for name in ["DBUS_SESSION_BUS_ADDRESS", "GNOME_KEYRING_CONTROL", "SSH_AUTH_SOCK", "DISPLAY", "WAYLAND_DISPLAY"]
        {
            environment[name] = nil
        }
        environment["HOME"] = directory.appendingPathComponent("home").path
        environment["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path
        environment["XDG_RUNTIME_DIR"] = directory.appendingPathComponent("run").path
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        environment["XDG_CACHE_HOME"] = directory.appendingPathComponent("cache").path
        environment["GK_PASSWORD_FILE"] = passwordFile
        environment["GK_LOG"] = directory.appendingPathComponent("daemon.log").path
        environment["GK_PYTHON"] = python
        environment["GK_ITEMS"] = itemsFile
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let daemon = GnomeKeyringDaemon(dataHome: directory.appendingPathComponent("data"))
        guard process.terminationStatus == 0, manager.fileExists(atPath: daemon.loginKeyring.path) else {
            let log = (try? String(contentsOf: directory.appendingPathComponent("daemon.log"), encoding: .utf8)) ?? ""
            throw NSError(
                domain: "GnomeKeyringDaemon", code: Int(process.terminationStatus),
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "making the keyring failed: \(String(decoding: stderr, as: UTF8.self)) daemon: \(log)"
                ])
        }
        return daemon
    }
}
