import AttackTestSupport
import Foundation
import XCTest

/// A process of another user (uid 65534, through setpriv) on the agent's abstract name,
/// written in Python (`/usr/bin/python3`, or `SECURE_STORAGE_PYTHON`): as a squatter or fake
/// agent it listens and records, for each connection, how many bytes the client sent; as a
/// client it connects, sends a request and records how many bytes it got back.
struct SocketPeer {
    /// Where the peer writes what it saw (a directory the other user owns).
    let directory: URL

    /// The Python interpreter: `SECURE_STORAGE_PYTHON`, else the system's python3.
    static var python: String? {
        let candidates = [ProcessInfo.processInfo.environment["SECURE_STORAGE_PYTHON"], "/usr/bin/python3"]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Listens on `name` (abstract), writes `listening` to `<directory>/log` once it does, then
    /// `received N` for each connection once the client closed it (or after 3 s).
    static let listener = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind("\\0" + sys.argv[1]); s.listen(16)
        log = sys.argv[2]
        open(log, "a").write("listening\\n")
        while True:
            c, _ = s.accept(); c.settimeout(3); n = 0
            try:
                while True:
                    d = c.recv(65536)
                    if not d: break
                    n += len(d)
            except Exception: pass
            open(log, "a").write("received %d\\n" % n); c.close()
        """

    /// Connects to `name`, sends a `ticket` request frame, writes `got N` (bytes received until
    /// the agent closed) to `<directory>/log`.
    static let client = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.settimeout(5)
        s.connect("\\0" + sys.argv[1])
        try: s.sendall(bytes([0, 0, 0, 2, 1, 4]))
        except Exception: pass
        n = 0
        try:
            while True:
                d = s.recv(65536)
                if not d: break
                n += len(d)
        except Exception as e: open(sys.argv[2], "a").write("error %s\\n" % e)
        open(sys.argv[2], "a").write("got %d\\n" % n)
        """

    /// A directory for the peer's log, owned by the other user.
    static func make(in scratch: URL) throws -> SocketPeer {
        let user = try AnotherUser.required()
        guard user.setpriv != nil else { throw XCTSkip("setpriv (util-linux) is needed to act as uid 65534") }
        guard python != nil else { throw XCTSkip("python3 is needed for the socket peer") }
        let directory = scratch.appendingPathComponent("peer-\(UUID().uuidString)")
        try user.handOver(directory, mode: 0o755)
        return SocketPeer(directory: directory)
    }

    var log: String { (try? String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)) ?? "" }

    /// Runs `script` with `name` as uid 65534 (or, `asRoot`, as this root process's child), in
    /// the background; the caller terminates it.
    func start(_ script: String, name: String, asRoot: Bool = false) throws -> Process {
        let process = Process()
        let arguments = [Self.python!, "-c", script, name, directory.appendingPathComponent("log").path]
        if asRoot {
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups"] + arguments
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until the log contains `text` (at most `timeout` seconds).
    func waitFor(_ text: String, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if log.contains(text) { return true }
            usleep(20_000)
        }
        return false
    }
}
