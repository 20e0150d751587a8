import Foundation

/// Reads lines from a file descriptor, waiting for each no longer than a deadline.
struct DeadlineLineReader {
    /// What waiting for a line gave.
    enum Result {
        /// A line, without its newline.
        case line([UInt8])
        /// The deadline passed first.
        case timedOut
        /// The other end closed (or reading failed) before a whole line came.
        case ended
    }

    private var descriptor: Int32
    private var buffered: [UInt8] = []

    /// A reader of `descriptor`, which it owns (``closeDescriptor()``).
    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Closes the descriptor, once; later reads end at once.
    mutating func closeDescriptor() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    /// The next line, waiting until `deadline` (a `DispatchTime` uptime in nanoseconds) at most.
    mutating func nextLine(before deadline: UInt64) -> Result {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            guard descriptor >= 0 else { return .ended }
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffered[..<newline])
                buffered.removeSubrange(...newline)
                return .line(line)
            }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return .timedOut }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: (deadline - now + 999_999) / 1_000_000)
            let ready = poll(&request, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready >= 0 else { return .ended }
            if ready == 0 { continue }
            let received = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if received < 0 && errno == EINTR { continue }
            guard received > 0 else { return .ended }
            buffered.append(contentsOf: chunk[..<received])
        }
    }
}
