import Foundation
import KeychainCore
import SecureStorageFoundation

/// The two files `keychaind install` writes, and how it writes and removes them: the systemd
/// user unit `keychaind.service` (in `$XDG_CONFIG_HOME/systemd/user`, else
/// `~/.config/systemd/user`) and the D-Bus activation file `org.freedesktop.secrets.service`
/// (in `$XDG_DATA_HOME/dbus-1/services`, else `~/.local/share/dbus-1/services`), which starts the
/// unit when a client first asks the session bus for the Secret Service.
///
/// Both are mode 0644, as systemd and dbus expect of them: they hold no secret (a passphrase
/// file is named by its path, never copied). Each carries ``marker``; a file without it is
/// someone else's (gnome-keyring's activation file, a unit of the user's own) and is neither
/// replaced nor removed. Files are written to a temporary file beside them, then renamed.
struct ServiceFiles {
    /// The line that says keychaind wrote the file.
    static let marker = "# Written by `keychaind install` (SecureStorage); `keychaind uninstall` removes it."

    let unitURL: URL
    let activationURL: URL

    /// The paths for `environment` (XDG_CONFIG_HOME, XDG_DATA_HOME, HOME).
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        func base(_ variable: String, _ fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
            let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
            return URL(fileURLWithPath: home).appendingPathComponent(fallback)
        }
        unitURL = base("XDG_CONFIG_HOME", ".config").appendingPathComponent("systemd/user/keychaind.service")
        activationURL = base("XDG_DATA_HOME", ".local/share").appendingPathComponent(
            "dbus-1/services/org.freedesktop.secrets.service")
    }

    /// The unit: keychaind in the foreground (it never forks), restarted when it fails, with the
    /// keychain and passphrase file given at install time.
    static func unit(executable: String, arguments: [String], keychainHome: String?) throws(KeychainError) -> String {
        try requirePrintable([executable, keychainHome ?? ""] + arguments)
        let command = ([executable, "run", "--foreground"] + arguments).map { quoted($0, for: .systemd) }
            .joined(separator: " ")
        let environment = keychainHome.map { "Environment=\(quoted("SECURE_STORAGE_HOME=\($0)", for: .systemd))\n" }
        return """
            \(marker)
            [Unit]
            Description=SecureStorage keychain agent (one unlock for every process; Secret Service)

            [Service]
            Type=simple
            ExecStart=\(command)
            \(environment ?? "")\
            Restart=on-failure
            # For an unattended unlock at start, uncomment and point it at a 0600 file of yours:
            # LoadCredential=secure-storage-passphrase:%h/.config/secure-storage/passphrase

            [Install]
            WantedBy=default.target

            """
    }

    /// The D-Bus activation file for `org.freedesktop.secrets`. Where systemd runs the session, the
    /// bus starts the unit (`SystemdService=`); elsewhere it runs `Exec=`, which sets the keychain's
    /// home itself (through `env`), since an activation file has no `Environment=`.
    static func activation(executable: String, arguments: [String], keychainHome: String?) throws(KeychainError)
        -> String
    {
        try requirePrintable([executable, keychainHome ?? ""] + arguments)
        let environment = keychainHome.map { ["/usr/bin/env", "SECURE_STORAGE_HOME=\($0)"] } ?? []
        let command = (environment + [executable, "run", "--foreground"] + arguments).map { quoted($0, for: .dbus) }
            .joined(separator: " ")
        return """
            \(marker)
            [D-BUS Service]
            Name=org.freedesktop.secrets
            Exec=\(command)
            SystemdService=keychaind.service

            """
    }

    /// Whose command-line syntax a word is quoted for.
    enum Syntax {
        /// systemd's `ExecStart=`/`Environment=`: `%` starts a specifier and `$` a variable, both doubled.
        case systemd
        /// dbus-daemon's `Exec=`: shell-like quoting, no specifiers or variables.
        case dbus
    }

    /// A word quoted for `syntax` when it needs it: in double quotes, with `\` and `"` escaped.
    static func quoted(_ word: String, for syntax: Syntax) -> String {
        var text = word
        if syntax == .systemd {
            text = text.replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: "$", with: "$$")
        }
        guard word.isEmpty || word.contains(where: { " \"'\\$%;#`".contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }

    /// Refuses paths with control characters (a newline would start a directive of its own).
    private static func requirePrintable(_ words: [String]) throws(KeychainError) {
        for word in words where word.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            throw KeychainError.agentUnprintablePath(word)
        }
    }

    /// Writes `text` at `url` (0644), creating its directory (0755); refuses a file without ``marker``.
    static func write(_ text: String, to url: URL) throws(KeychainError) {
        try requireOwnOrAbsent(url)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o755])
        } catch { throw KeychainError.agentFileFailed(path: url.path, reason: "\(error.localizedDescription)") }
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString)")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw KeychainError.agentFileFailed(path: temporary.path, reason: String(cString: strerror(errno)))
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { SecureStorageFoundation.write(descriptor, $0.baseAddress, $0.count) }
        let failure = written == bytes.count ? nil : String(cString: strerror(errno))
        fchmod(descriptor, 0o644)  // whatever the umask
        fsync(descriptor)
        close(descriptor)
        if let failure {
            unlink(temporary.path)
            throw KeychainError.agentFileFailed(path: url.path, reason: failure)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw KeychainError.agentFileFailed(path: url.path, reason: reason)
        }
    }

    /// Removes `url` when keychaind wrote it; returns whether there was one to remove.
    static func remove(_ url: URL) throws(KeychainError) -> Bool {
        try requireOwnOrAbsent(url)
        guard FileManager.default.fileExists(atPath: url.path) else { return false }
        guard unlink(url.path) == 0 else {
            throw KeychainError.agentFileFailed(path: url.path, reason: String(cString: strerror(errno)))
        }
        return true
    }

    /// Refuses a file (or link, or directory) at `url` that is not a regular file of this user
    /// carrying ``marker``.
    private static func requireOwnOrAbsent(_ url: URL) throws(KeychainError) {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return }  // absent
        guard info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
            let text = try? String(contentsOf: url, encoding: .utf8), text.hasPrefix(marker)
        else { throw KeychainError.agentForeignFile(path: url.path) }
    }
}
