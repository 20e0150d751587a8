import Foundation

/// Reads a pipe to its end on a background thread, so a chatty child never blocks on a full pipe.
public final class DrainedPipe: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    /// Starts reading `handle` until its end.
    public init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything read, once the pipe closed.
    public func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
