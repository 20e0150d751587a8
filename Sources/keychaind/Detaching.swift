import Foundation
import SecureStorageFoundation

/// keychaind without `--foreground`: it starts itself again as a detached child (a session of
/// its own, no terminal, standard input and output on /dev/null) and returns once that child
/// serves, with status 0, or with the child's status and messages when it could not start (the
/// keychain missing, a wrong passphrase file, another keychaind already serving, a squatter).
/// The child reports readiness with ``readyLine`` on standard error, then points standard error
/// at /dev/null, so nothing it logs later is lost in a pipe nobody reads. Nothing secret crosses:
/// the child reads the passphrase file or credential itself.
enum Detaching {
    /// What the child writes once it serves.
    static let readyLine = "keychaind: ready"

    /// Starts the detached child with `arguments` (the `run` options) and waits for it; returns
    /// the exit status for this process.
    static func startChild(arguments: [String]) throws -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["run", "--detached-child"] + arguments
        let errors = Pipe()
        child.standardInput = FileHandle.nullDevice
        child.standardOutput = FileHandle.nullDevice
        child.standardError = errors
        try child.run()
        let text = Locked("")
        let reader = errors.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let data = reader.availableData
                if data.isEmpty { break }
                text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        while true {
            if text.withLock({ $0.contains(readyLine) }) {
                print("keychaind: serving (pid \(child.processIdentifier))")
                return 0
            }
            if !child.isRunning {
                child.waitUntilExit()
                usleep(50_000)  // the last of its messages
                let messages = text.withLock { $0 }.replacingOccurrences(of: readyLine + "\n", with: "")
                FileHandle.standardError.write(Data(messages.utf8))
                return child.terminationStatus == 0 ? 1 : child.terminationStatus
            }
            usleep(20_000)
        }
    }

    /// In the child: leaves the parent's session (no terminal, no SIGHUP when it closes).
    static func leaveSession() { _ = setsid() }

    /// In the child, once serving: says so, then sends standard error to /dev/null.
    static func reportReady() {
        FileHandle.standardError.write(Data((readyLine + "\n").utf8))
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        if null >= 0 {
            dup2(null, STDERR_FILENO)
            close(null)
        }
    }
}
