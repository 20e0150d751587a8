import Foundation

/// A throw-away PostgreSQL cluster for a test: `initdb` into a new temporary directory, the
/// server listening only on a Unix socket in that directory (no TCP port), stopped and deleted
/// with the instance.
///
/// Running as root (as CI does), the cluster belongs to the `postgres` user and is started
/// through `runuser`; PostgreSQL refuses to run as root. Without PostgreSQL's server programs
/// ``init()`` throws ``PostgresTestServerUnavailable`` with `isMissing` set (tests skip then,
/// except under `REQUIRE_POSTGRES`, which `scripts/test` sets).
public final class PostgresTestServer: @unchecked Sendable {
    /// The directory holding the cluster, its socket and its log.
    public let directory: URL
    /// The database tests connect to.
    public let database = "keychain_sync"
    /// The role tests connect as (trust authentication over the socket).
    public let user = "keychain"
    /// The loopback TCP port the server also listens on, when asked for one; the Unix socket
    /// and every command use this port number too.
    public let loopbackPort: Int?

    private let binaries: String
    private let owner: String?

    /// The cluster's data directory (grep it for what the server stored).
    public var dataDirectory: URL { directory.appendingPathComponent("data") }

    /// A libpq connection string for this server.
    public var connectionString: String {
        "host=\(directory.path)\(portClause) dbname=\(database) user=\(user) connect_timeout=5"
    }

    private var portClause: String { loopbackPort.map { " port=\($0)" } ?? "" }
    private var portArguments: [String] { loopbackPort.map { ["-p", "\($0)"] } ?? [] }

    /// Creates and starts a new cluster with an empty database ``database``; with
    /// `listeningOnLoopback`, the server also takes TCP connections on 127.0.0.1 at a free port
    /// (``loopbackPort``), for commands that name a host.
    public init(listeningOnLoopback: Bool = false) throws {
        loopbackPort = listeningOnLoopback ? Self.freeLoopbackPort() : nil
        guard let binaries = Self.serverBinaries else {
            throw PostgresTestServerUnavailable(
                message: "PostgreSQL's server is not installed (Debian: apt-get install postgresql)", isMissing: true)
        }
        self.binaries = binaries
        owner = getuid() == 0 ? "postgres" : nil
        // sun_path holds 108 bytes: keep the socket's directory short.
        directory = URL(fileURLWithPath: "/tmp/pg-\(UUID().uuidString.prefix(8).lowercased())", isDirectory: true)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        do {
            if let owner { try Self.run("/bin/chown", [owner, directory.path]) }
            try runAsOwner(
                "initdb",
                ["-D", dataDirectory.path, "-A", "trust", "-U", user, "-E", "UTF8", "--no-sync", "--no-instructions"])
            try start()
            try runAsOwner(
                "createdb", ["-h", directory.path, "-U", user] + portArguments + [database], binaryDirectory: binaries)
        } catch {
            stop()
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the server (after ``stop()``, the same cluster with its data).
    public func start() throws {
        // The server inherits pg_ctl's standard output and error: not pipes, or reading them
        // would wait for the server to exit. Its messages go to the log.
        try runAsOwner(
            "pg_ctl",
            [
                "-D", dataDirectory.path, "-l", directory.appendingPathComponent("log").path, "-w", "-t", "30",
                "-o",
                "-k \(directory.path) -c listen_addresses='\(loopbackPort == nil ? "" : "127.0.0.1")'\(loopbackPort.map { " -p \($0)" } ?? "") -c fsync=off -c max_connections=200",
                "start"
            ],
            capturingOutput: false)
    }

    /// Stops the server: `fast` rolls back open transactions and closes connections; `immediate`
    /// is a crash (recovery runs at the next start).
    public func stop(mode: String = "fast") {
        _ = try? runAsOwner("pg_ctl", ["-D", dataDirectory.path, "-m", mode, "-w", "-t", "30", "stop"])
    }

    /// Stops and starts the server again.
    public func restart(mode: String = "fast") throws {
        stop(mode: mode)
        try start()
    }

    /// Runs `psql` with `sql` and returns what it printed (unaligned, tuples only).
    @discardableResult
    public func psql(_ sql: String) throws -> String {
        try Self.run(
            binaries + "/psql",
            [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory.path, "-U", user, "-d", database, "-c",
                sql
            ] + portArguments)
    }

    /// Runs `pg_dump` of the whole database and returns the dump.
    public func dump() throws -> String {
        try Self.run(binaries + "/pg_dump", ["-h", directory.path, "-U", user] + portArguments + [database])
    }

    /// Every byte under the data directory, file by file (readable as root or as the owner).
    public func dataFiles() -> [(path: String, contents: Data)] {
        guard
            let walker = FileManager.default.enumerator(
                at: dataDirectory, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var files: [(String, Data)] = []
        for case let url as URL in walker {
            if let contents = try? Data(contentsOf: url) { files.append((url.path, contents)) }
        }
        return files
    }

    private func runAsOwner(
        _ program: String, _ arguments: [String], binaryDirectory: String? = nil, capturingOutput: Bool = true
    ) throws {
        let path = (binaryDirectory ?? binaries) + "/" + program
        if let owner {
            try Self.run("/usr/sbin/runuser", ["-u", owner, "--", path] + arguments, capturingOutput: capturingOutput)
        } else {
            try Self.run(path, arguments, capturingOutput: capturingOutput)
        }
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's choice for port 0).
    private static func freeLoopbackPort() -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, length) == 0 && getsockname(socketDescriptor, $0, &length) == 0
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The directory of `initdb` and `pg_ctl` (Debian keeps them under /usr/lib/postgresql/N/bin).
    public static var serverBinaries: String? {
        if let configured = ProcessInfo.processInfo.environment["POSTGRES_BIN"] { return configured }
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }

    /// Runs a program to completion with posix_spawn and waitpid (Foundation's `Process` can
    /// miss the exit of a program whose child keeps running, as `pg_ctl start` leaves the
    /// server), its output captured in a temporary file unless `capturingOutput` is false.
    @discardableResult
    private static func run(_ executable: String, _ arguments: [String], capturingOutput: Bool = true) throws -> String
    {
        let outputPath = NSTemporaryDirectory() + "pg-test-\(UUID().uuidString)"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 1, capturingOutput ? outputPath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw PostgresTestServerUnavailable(
                message: "cannot start \(executable): \(String(cString: strerror(spawned)))", isMissing: false)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let printed = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            throw PostgresTestServerUnavailable(
                message: "\(executable) \(arguments.joined(separator: " ")) failed (status \(status)): \(printed)",
                isMissing: false)
        }
        return printed
    }
}

/// PostgreSQL could not be started for a test.
public struct PostgresTestServerUnavailable: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// PostgreSQL's server is not installed (rather than installed and failing).
    public let isMissing: Bool
    /// The message.
    public var description: String { message }
}
