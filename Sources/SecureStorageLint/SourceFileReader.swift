import Foundation

/// Reads a file to lint: regular files only (a FIFO or a device named `X.swift` would block or
/// never end), and never more than ``InputLimits/maximumBytes`` plus one.
enum SourceFileReader {
    /// The file's bytes, or why they cannot be linted.
    static func bytes(atPath path: String) -> Result<[UInt8], NotLintedReason> {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.unreadable) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegularFile) }
        if Int(status.st_size) > InputLimits.maximumBytes { return .failure(.tooLarge(bytes: Int(status.st_size))) }
        let limit = InputLimits.maximumBytes + 1
        var bytes = [UInt8](repeating: 0, count: min(Int(status.st_size), InputLimits.maximumBytes) + 1)
        var count = 0
        while count < limit {
            if count == bytes.count {
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit - bytes.count)))
            }
            let received = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if received < 0 && errno == EINTR { continue }
            guard received >= 0 else { return .failure(.unreadable) }
            if received == 0 { break }
            count += received
        }
        if count > InputLimits.maximumBytes { return .failure(.tooLarge(bytes: count)) }
        return .success(Array(bytes[..<count]))
    }
}
