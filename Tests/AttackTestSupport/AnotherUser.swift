import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Another local user (uid/gid 65534, `nobody`) for tests that attack the file system the way
/// a second user on the machine would: commands run as it through `setpriv` (util-linux);
/// without `setpriv`, what it would create is created by root and handed to it with `chown`.
/// Shared by KeychainCoreTests, SecureStorageTests and the CLI tests' assertions.
public struct AnotherUser: Sendable {
    public static let uid: uid_t = 65534
    public let setpriv: String?

    /// The attacker, or a failure (under `REQUIRE_TEST_EXECUTABLES`) or skip when this process
    /// is not root and so cannot act as, or give files to, another user.
    public static func required(file: StaticString = #filePath, line: UInt = #line) throws -> AnotherUser {
        guard getuid() == 0 else {
            let message = "acting as another user (uid 65534) needs root, as CI runs"
            if ProcessInfo.processInfo.environment["REQUIRE_TEST_EXECUTABLES"] != nil {
                XCTFail(message, file: file, line: line)
                throw CocoaError(.featureUnsupported)
            }
            throw XCTSkip(message)
        }
        return AnotherUser(
            setpriv: ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) })
    }

    /// `/bin/sh -c script` as the other user, not yet started; `nil` without `setpriv`.
    private func process(_ script: String, _ arguments: [String]) -> Process? {
        guard let setpriv else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv)
        process.arguments =
            ["--reuid=\(Self.uid)", "--regid=\(Self.uid)", "--clear-groups", "--", "/bin/sh", "-c", script, "sh"]
            + arguments
        return process
    }

    /// Runs `/bin/sh -c script` as the other user; returns its exit status (-1 without `setpriv`).
    @discardableResult
    public func run(_ script: String, _ arguments: String..., input: Data = Data()) throws -> Int32 {
        guard let process = process(script, arguments) else { return -1 }
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Starts `/bin/sh -c script` as the other user and leaves it running (terminate it when
    /// done); `nil` without `setpriv`.
    public func start(_ script: String, _ arguments: String...) throws -> Process? {
        guard let process = process(script, arguments) else { return nil }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The owner of `path` (not following a link).
    public static func owner(of path: String) -> uid_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_uid : nil
    }

    /// The other user creates directory `url` with `mode`.
    public func makeDirectory(_ url: URL, mode: Int) throws {
        if setpriv != nil {
            XCTAssertEqual(
                try run("mkdir -m \(String(mode, radix: 8)) \"$1\"", url.path), 0, "the other user creates \(url.path)")
        } else {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            try handOver(url, mode: mode)
        }
        XCTAssertEqual(Self.owner(of: url.path), Self.uid)
    }

    /// The other user writes `text` to a file of its own at `url`, with `mode`.
    public func write(_ url: URL, _ text: String, mode: Int) throws {
        if setpriv != nil {
            XCTAssertEqual(
                try run(
                    "umask 0; cat > \"$1\" && chmod \(String(mode, radix: 8)) \"$1\"", url.path, input: Data(text.utf8)),
                0)
        } else {
            try Data(text.utf8).write(to: url)
            try handOver(url, mode: mode)
        }
        XCTAssertEqual(Self.owner(of: url.path), Self.uid)
    }

    /// The other user plants a symbolic link at `url` pointing to `target`.
    public func symlink(_ url: URL, to target: URL) throws {
        if setpriv != nil {
            XCTAssertEqual(try run("ln -s \"$2\" \"$1\"", url.path, target.path), 0)
        } else {
            try FileManager.default.createSymbolicLink(at: url, withDestinationURL: target)
            XCTAssertEqual(lchown(url.path, Self.uid, Self.uid), 0)
        }
    }

    /// Gives an existing (or new) directory or file to the other user, as only root can.
    public func handOver(_ url: URL, mode: Int = 0o700) throws {
        if !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        }
        XCTAssertEqual(chown(url.path, Self.uid, Self.uid), 0)
        XCTAssertEqual(chmod(url.path, mode_t(mode)), 0)
    }

    /// Whether the other user can open `url` for reading (tried as that user when `setpriv` is
    /// there; from the permission bits otherwise).
    public func canRead(_ url: URL) throws -> Bool {
        if setpriv != nil { return try run("cat \"$1\" > /dev/null", url.path) == 0 }
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return false }
        let mode = info.st_mode & 0o777
        return info.st_uid == Self.uid ? mode & 0o400 != 0 : mode & 0o004 != 0
    }

    /// Reads every file in `directory` in a tight loop as the other user until stopped; `nil`
    /// without `setpriv` (the in-process mode watcher then stands in for the reader).
    public func startReadingEverything(in directory: URL) throws -> Reader {
        let reader = Reader(
            process(
                #"echo started; while :; do for f in "$1"/*; do cat "$f" 2>/dev/null; done; done"#, [directory.path]))
        try reader.start()
        return reader
    }

    public final class Reader {
        private let process: Process?
        private var output: Pipe?
        private var collected = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ process: Process?) { self.process = process }

        public func start() throws {
            guard let process else { return }
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            output = pipe
            let handle = pipe.fileHandleForReading
            let box = Box()
            Thread.detachNewThread { [done] in
                box.data = handle.readDataToEndOfFile()
                done.signal()
            }
            self.box = box
        }

        private var box: Box?
        private final class Box: @unchecked Sendable { var data = Data() }

        /// Everything the other user managed to read.
        public func stop() -> String? {
            guard let process, let box else { return nil }
            process.terminate()
            process.waitUntilExit()
            done.wait()
            collected = box.data
            return String(decoding: collected, as: UTF8.self)
        }
    }
}
