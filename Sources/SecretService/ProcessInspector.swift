import Foundation
import SecureStorageFoundation

/// Reads what `/proc` says about a caller's process: executable, systemd unit, Flatpak app id.
///
/// Pid reuse: the bus daemon read the pid when the client connected; the process may have exited
/// and the pid been reused since. When the bus hands over a pidfd of the process, it is polled after
/// the reads: a pidfd becomes readable when its process exits, so a quiet pidfd proves that the pid
/// still named that process while `/proc` was read. Without a pidfd, the process's start time
/// (`/proc/<pid>/stat`, field 22) is read before and after, and a change or a vanished process
/// makes the caller unidentified (``SecretServiceError/unidentifiedCaller()``), never another app.
package struct ProcessInspector: Sendable {
    /// The `/proc` mount read (a test may point it elsewhere).
    package var procRoot: String

    /// An inspector of `procRoot` (default `/proc`).
    package init(procRoot: String = "/proc") { self.procRoot = procRoot }

    /// The caller `uniqueName` of `uid` whose process is `pid`, with what `/proc` says about it;
    /// `processFD` is the pidfd the bus gave, if any (not closed here).
    package func inspect(uniqueName: String, uid: UInt32, pid: UInt32?, processFD: Int32?) throws(SecretServiceError)
        -> SecretServiceCaller
    {
        guard let pid, pid > 0 else { return SecretServiceCaller(uniqueName: uniqueName, uid: uid) }
        let directory = "\(procRoot)/\(pid)"
        let startedBefore = startTime(directory)
        guard processFD != nil || startedBefore != nil else { throw .unidentifiedCaller() }
        let unit = Self.systemdUnit(cgroup: read(directory + "/cgroup"))
        let caller = SecretServiceCaller(
            uniqueName: uniqueName, uid: uid, pid: pid,
            executable: try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/exe"),
            systemdUnit: unit, flatpakAppID: try flatpakAppID(directory, systemdUnit: unit))
        if let processFD {
            guard !Self.hasExited(processFD: processFD) else { throw .unidentifiedCaller() }
        } else {
            guard startTime(directory) == startedBefore else { throw .unidentifiedCaller() }
        }
        return caller
    }

    /// The app id of `/proc/<pid>/root/.flatpak-info`: `nil` when the file does not exist, an error
    /// when it exists but cannot be read or names no valid id (a sandboxed app must never pass as
    /// an unsandboxed one because its file was odd).
    ///
    /// A process that made itself non-dumpable (`SecureStorage.hardenProcess()`, ssh-agent,
    /// password managers) has a root its own user cannot open: it is then told by its systemd unit,
    /// which `/proc/<pid>/cgroup` shows to everyone and an app cannot leave. Flatpak runs each app
    /// in a scope `app-flatpak-<app id>-<n>.scope`; any other unit, or none, is an unsandboxed
    /// process. (A Flatpak app normally reaches the bus through flatpak's D-Bus proxy, a process
    /// it does not control; one granted the whole session bus, which Flatpak documents as a hole in
    /// the sandbox, and run without systemd scopes, would pass as unsandboxed here.)
    private func flatpakAppID(_ directory: String, systemdUnit: String?) throws(SecretServiceError) -> String? {
        let path = directory + "/root/.flatpak-info"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if FileManager.default.isReadableFile(atPath: directory + "/root/") { return nil }
            return systemdUnit.flatMap(Self.flatpakAppID(scope:))
        }
        guard !isDirectory.boolValue, let text = read(path), let name = FlatpakInfo.applicationName(in: text) else {
            throw .unidentifiedCaller()
        }
        return name
    }

    /// The app id of a Flatpak scope `app-flatpak-<app id>-<n>.scope`, `nil` for any other unit.
    static func flatpakAppID(scope unit: String) -> String? {
        let prefix = "app-flatpak-"
        let suffix = ".scope"
        guard unit.hasPrefix(prefix), unit.hasSuffix(suffix) else { return nil }
        let middle = unit.dropFirst(prefix.count).dropLast(suffix.count)
        guard let dash = middle.lastIndex(of: "-"), !middle[middle.index(after: dash)...].isEmpty,
            middle[middle.index(after: dash)...].allSatisfy(\.isNumber)
        else { return nil }
        let appID = String(middle[..<dash])
        return FlatpakInfo.isValidApplicationID(appID) ? appID : nil
    }

    /// The file's text, at most 64 KiB of it.
    private func read(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 65_536) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Field 22 of `/proc/<pid>/stat` (start time in clock ticks since boot).
    private func startTime(_ directory: String) -> String? {
        guard let stat = read(directory + "/stat"), let end = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        // Fields after the command: state is field 3, so start time (22) is index 19.
        return fields.count > 19 ? String(fields[19]) : nil
    }

    /// The unit named by the unified (`0::`) line of a cgroup file: its last path element ending
    /// in `.service` or `.scope`.
    static func systemdUnit(cgroup: String?) -> String? {
        guard let cgroup else { return nil }
        for line in cgroup.split(separator: "\n") where line.hasPrefix("0::") {
            return line.dropFirst(3).split(separator: "/").last { $0.hasSuffix(".service") || $0.hasSuffix(".scope") }
                .map(String.init)
        }
        return nil
    }

    /// Whether the process behind a pidfd has exited (the pidfd polls readable).
    static func hasExited(processFD: Int32) -> Bool {
        var descriptor = pollfd(fd: processFD, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, 0)
        return ready != 0
    }
}

/// The `[Application] name=` of a `.flatpak-info` key file.
enum FlatpakInfo {
    /// The application id, when the file has one that is a valid D-Bus-style id (letters,
    /// digits, `_`, `-`, `.`; 1 to 255 characters).
    static func applicationName(in text: String) -> String? {
        var section = ""
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
            } else if section == "Application", line.hasPrefix("name=") {
                let name = String(line.dropFirst(5)).trimmingCharacters(in: .whitespaces)
                return isValidApplicationID(name) ? name : nil
            }
        }
        return nil
    }

    /// Letters, digits, `_`, `-`, `.`; 1 to 255 characters.
    static func isValidApplicationID(_ name: String) -> Bool {
        let valid = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "_-.".unicodeScalars.contains($0)
        }
        return valid && (1...255).contains(name.count)
    }
}
