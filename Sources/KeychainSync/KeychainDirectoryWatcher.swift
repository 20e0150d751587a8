import Foundation
import KeychainCore
@preconcurrency import SecureStorageFoundation

/// Tells when anything in a keychain's directory changes, written by any process: inotify on
/// Linux, so a local write wakes background sync at once without polling. Where inotify is
/// missing it falls back to a check every 250 ms. The caller compares ``KeychainFileStamp``s,
/// so a change to another file of the directory costs one `stat` and no sync.
///
/// `@unchecked Sendable`: its one property is a dispatch source, which is safe to cancel from any thread.
final class KeychainDirectoryWatcher: @unchecked Sendable {
    private let source: any DispatchSourceProtocol

    /// Starts watching the directory of `location`'s database; `onChange` runs on a private queue.
    init(_ location: KeychainLocation, onChange: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "KeychainSync.KeychainDirectoryWatcher")
        if let descriptor = Self.inotifyDescriptor(watching: location.databaseURL.deletingLastPathComponent().path) {
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler {
                Self.drain(descriptor)
                onChange()
            }
            source.setCancelHandler { close(descriptor) }
            self.source = source
        } else {
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
            source.setEventHandler(handler: onChange)
            self.source = source
        }
        source.resume()
    }

    /// Stops watching.
    func stop() {
        source.cancel()
    }

    deinit { source.cancel() }

    /// An inotify descriptor watching `directory` for writes, creations, renames and deletions;
    /// `nil` where inotify is missing or refused.
    private static func inotifyDescriptor(watching directory: String) -> Int32? {
        #if os(Linux) || os(Android)
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let events = UInt32(
            IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB)
        guard inotify_add_watch(descriptor, directory, events) >= 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
        #else
        return nil
        #endif
    }

    /// Reads every pending event (their names do not matter: the stamps tell).
    private static func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
