import Foundation
import KeychainCore
import SecureStorageFoundation

extension SecretInput {
    /// What ``readLine(prompt:watching:)`` got.
    enum WatchedLine {
        /// A line typed (without its newline).
        case line(String)
        /// End of input (Ctrl-D on an empty line).
        case endOfInput
        /// `descriptor` became readable first; what was typed so far is discarded.
        case interrupted
    }

    /// Shows `prompt` on the terminal and reads a line with echo off, as ``read(prompt:as:)``
    /// does, but gives up when `descriptor` (an agent connection) becomes readable first.
    /// Standard input must be a terminal (canonical mode: it is readable once a line is complete).
    static func readLine(prompt: String, watching descriptor: Int32) -> WatchedLine {
        let result = withEchoOff { () -> WatchedLine in
            FileHandle.standardError.write(Data(prompt.utf8))
            var typed: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1024)
            defer {
                SecretWiping.wipe(&typed)
                SecretWiping.wipe(&buffer)
            }
            while true {
                var entries = [
                    pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                ]
                let ready = poll(&entries, 2, -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return .endOfInput
                }
                if entries[1].revents != 0 {
                    _ = tcflush(STDIN_FILENO, TCIFLUSH)  // half a passphrase stays out of the next prompt
                    return .interrupted
                }
                guard entries[0].revents != 0 else { continue }
                let count = Glibc.read(STDIN_FILENO, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return typed.isEmpty ? .endOfInput : .line(String(decoding: typed, as: UTF8.self)) }
                typed.append(contentsOf: buffer[0..<count])
                if let newline = typed.firstIndex(of: UInt8(ascii: "\n")) {
                    var line = Array(typed[..<newline])
                    defer { SecretWiping.wipe(&line) }
                    if line.last == UInt8(ascii: "\r") { line.removeLast() }
                    return .line(String(decoding: line, as: UTF8.self))
                }
            }
        }
        FileHandle.standardError.write(Data("\n".utf8))
        return result
    }
}
