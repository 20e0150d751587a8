import CLibPQ
import Foundation
import KeychainCore

/// What the server says besides results (`NOTICE`, `WARNING`, …). libpq's default notice
/// processor prints such a message to standard error exactly as the server sent it: a server
/// (which sync does not trust) could put terminal escape sequences there. This one prints it
/// made safe (``PrintableText``), one line per message.
enum ServerNotice {
    /// How much of one message is shown.
    static let limit = 500

    /// Makes `connection` print the server's messages through ``line(for:)``.
    static func install(on connection: OpaquePointer) {
        _ = PQsetNoticeProcessor(
            connection,
            { _, message in
                guard let message else { return }
                FileHandle.standardError.write(Data(ServerNotice.line(for: String(cString: message)).utf8))
            }, nil)
    }

    /// The line printed for one message libpq hands over (`"NOTICE:  …\n"`).
    static func line(for message: String) -> String {
        "sync server: " + PrintableText.sanitized(message.trimmingCharacters(in: .whitespacesAndNewlines), limit: limit)
            + "\n"
    }
}
