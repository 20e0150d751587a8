import Foundation

/// A software TPM 2.0 (Debian's `swtpm`) started for a test on a Unix socket in a throw-away
/// directory, and stopped with the test.
///
/// Each instance is a separate "machine": its own endorsement and owner seeds, so nothing one
/// wraps loads in another. ``restart()`` reboots the same machine (same state directory, PCRs
/// reset). Without `swtpm` on the `PATH`, ``init()`` throws ``SoftwareTPMUnavailable`` with
/// `isMissing` set (tests skip then, except under `REQUIRE_TPM_SIMULATOR`, which `scripts/test` sets).
public final class SoftwareTPM: @unchecked Sendable {
    /// The directory holding the TPM's permanent state and its sockets.
    public let stateDirectory: URL
    private var process: Process?

    /// The tpm2-tss TCTI configuration naming this TPM.
    public var tcti: String { "swtpm:path=\(stateDirectory.path)/sock" }

    /// Starts a new TPM, manufactured on first start.
    public init() throws {
        // sun_path holds 108 bytes: keep the socket path short.
        stateDirectory = URL(
            fileURLWithPath: "/tmp/swtpm-\(UUID().uuidString.prefix(8).lowercased())", isDirectory: true)
        try FileManager.default.createDirectory(
            at: stateDirectory, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        do {
            try start()
        } catch {
            try? FileManager.default.removeItem(at: stateDirectory)
            throw error
        }
    }

    deinit { stop(removingState: true) }

    /// The path of `swtpm`, or `nil`.
    public static var executable: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":").map(String.init) + ["/usr/bin"])
            .map { $0 + "/swtpm" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private func start() throws {
        guard let executable = Self.executable else {
            throw SoftwareTPMUnavailable(
                message: "swtpm is not installed (Debian: apt-get install swtpm)", isMissing: true)
        }
        let socket = stateDirectory.appendingPathComponent("sock").path
        try? FileManager.default.removeItem(atPath: socket)
        try? FileManager.default.removeItem(atPath: socket + ".ctrl")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "socket", "--tpm2", "--tpmstate", "dir=\(stateDirectory.path)",
            "--server", "type=unixio,path=\(socket)", "--ctrl", "type=unixio,path=\(socket).ctrl",
            "--flags", "not-need-init,startup-clear", "--log", "file=\(stateDirectory.path)/log"
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // Ready when a connection is accepted (the socket file appears before listen()).
        let deadline = Date().addingTimeInterval(10)
        while !Self.accepts(socket) {
            guard process.isRunning, Date() < deadline else {
                stop(removingState: false)
                throw SoftwareTPMUnavailable(
                    message: "swtpm did not start (see \(stateDirectory.path)/log)", isMissing: false)
            }
            usleep(2_000)
        }
    }

    /// Stops the TPM (SIGTERM; its state is on disk) and starts it again: a reboot of the same machine.
    public func restart() throws {
        stop(removingState: false)
        try start()
    }

    /// Stops the TPM and, unless told otherwise, deletes its state.
    public func stop(removingState: Bool = true) {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        process = nil
        if removingState { try? FileManager.default.removeItem(at: stateDirectory) }
    }

    private static func accepts(_ path: String) -> Bool {
        guard let descriptor = UnixSocket.connected(to: path) else { return false }
        close(descriptor)
        return true
    }
}

/// `swtpm` could not be started.
public struct SoftwareTPMUnavailable: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// `swtpm` is not installed (rather than installed and failing).
    public let isMissing: Bool
    /// The message.
    public var description: String { message }
}
