import Foundation

/// A private `dbus-daemon` for a test: its own session-bus configuration in a new temporary
/// directory (0700), listening on `unix:path=<directory>/bus` with EXTERNAL authentication, the
/// limits of Debian's session bus (`session.conf`: 50 000 pending replies per connection, and so
/// on; the daemon's built-in defaults are far lower), a
/// policy that lets every connection own names and send and receive anything, and a service
/// directory (``serviceDirectory``) where a test drops `.service` files for activation.
/// ``stop()`` kills the daemon, waits for it and deletes the directory (``deinit`` does too).
///
/// Without `dbus-daemon` ``init()`` throws ``PrivateBusUnavailable`` with `isMissing` set.
public final class PrivateBus: @unchecked Sendable {
    /// The directory holding the configuration, the socket and the service directory.
    public let directory: URL
    /// The bus address, `unix:path=<directory>/bus`.
    public let address: String
    /// The socket's path.
    public let socketPath: String
    /// Where the bus looks for `.service` files (D-Bus activation).
    public let serviceDirectory: URL
    /// The daemon's process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    private let process: Process
    private let stopped = NSLock()
    private var isStopped = false

    /// The daemon's well-known locations.
    public static let daemonCandidates = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon", "/usr/local/bin/dbus-daemon"]

    /// Starts a bus and returns once it accepts connections; `environment` is what activated
    /// services get (the bus's own environment).
    public init(environment: [String: String]? = nil) throws {
        guard let daemon = Self.daemonCandidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            throw PrivateBusUnavailable(
                message: "dbus-daemon is not installed (Debian: apt-get install dbus-daemon)", isMissing: true)
        }
        // sun_path holds 108 bytes: keep the directory short.
        directory = URL(fileURLWithPath: "/tmp/dbus-\(UUID().uuidString.prefix(8).lowercased())", isDirectory: true)
        socketPath = directory.appendingPathComponent("bus").path
        address = "unix:path=" + socketPath
        serviceDirectory = directory.appendingPathComponent("services", isDirectory: true)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(
            at: serviceDirectory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let configuration = directory.appendingPathComponent("bus.conf")
        try Self.configuration(socketPath: socketPath, serviceDirectory: serviceDirectory.path)
            .write(to: configuration, atomically: false, encoding: .utf8)

        process = Process()
        process.executableURL = URL(fileURLWithPath: daemon)
        process.arguments = ["--config-file=\(configuration.path)", "--nofork", "--nopidfile", "--print-address=1"]
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw PrivateBusUnavailable(message: "dbus-daemon could not start: \(error)", isMissing: false)
        }
        // The daemon prints its address once it listens; EOF first means it failed.
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
        guard printed.contains(UInt8(ascii: "\n")) else {
            process.waitUntilExit()
            let reason = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: directory)
            throw PrivateBusUnavailable(
                message:
                    "dbus-daemon exited before listening: \(reason.trimmingCharacters(in: .whitespacesAndNewlines))",
                isMissing: false)
        }
    }

    deinit { stop() }

    /// Kills the daemon (SIGKILL: a child of Foundation's `Process` starts with SIGTERM blocked,
    /// so the daemon would never see one), waits for it, and deletes the directory. Safe to call twice.
    public func stop() {
        guard markStopped() else { return }
        killDaemon()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Kills the daemon with SIGKILL (the bus dies under its clients) and waits for it; the
    /// directory stays until ``stop()``.
    public func killDaemon() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    private func markStopped() -> Bool {
        stopped.lock()
        defer { stopped.unlock() }
        if isStopped { return false }
        isStopped = true
        return true
    }

    /// A session bus configuration: one Unix socket, EXTERNAL only, everything allowed.
    static func configuration(socketPath: String, serviceDirectory: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <keep_umask/>
          <listen>unix:path=\(socketPath)</listen>
          <auth>EXTERNAL</auth>
          <servicedir>\(serviceDirectory)</servicedir>
          <limit name="max_incoming_bytes">1000000000</limit>
          <limit name="max_incoming_unix_fds">250000000</limit>
          <limit name="max_outgoing_bytes">1000000000</limit>
          <limit name="max_outgoing_unix_fds">250000000</limit>
          <limit name="max_message_size">1000000000</limit>
          <limit name="service_start_timeout">120000</limit>
          <limit name="auth_timeout">240000</limit>
          <limit name="pending_fd_timeout">150000</limit>
          <limit name="max_completed_connections">100000</limit>
          <limit name="max_incomplete_connections">10000</limit>
          <limit name="max_connections_per_user">100000</limit>
          <limit name="max_pending_service_starts">10000</limit>
          <limit name="max_names_per_connection">50000</limit>
          <limit name="max_match_rules_per_connection">50000</limit>
          <limit name="max_replies_per_connection">50000</limit>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """
    }
}

/// Why a ``PrivateBus`` could not start; `isMissing` when `dbus-daemon` is not installed.
public struct PrivateBusUnavailable: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// Whether `dbus-daemon` is missing (a test may skip then, unless `REQUIRE_DBUS` is set).
    public let isMissing: Bool

    /// The message.
    public var description: String { message }
}
