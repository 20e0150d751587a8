#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An append-only journal the tests read after killing the helper.
struct JournalFile {
    let descriptor: Int32

    init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        guard descriptor >= 0 else { throw StressFailure("cannot open the journal \(path): errno \(errno)") }
    }

    /// One write(2) per line: a line is in the journal whole, or (killed mid-write) torn at the end.
    func append(_ line: String) throws {
        let bytes = Array(line.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else {
            throw StressFailure("journal write failed: errno \(errno)")
        }
    }
}
