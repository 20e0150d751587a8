import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Unix stream sockets for the TPM test tools: a software TPM's readiness probe, and the fake
/// TPM sockets of the bus-attack tests.
public enum UnixSocket {
    /// A connected socket to `path`, or `nil` when nothing accepts there.
    public static func connected(to path: String) -> Int32? {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = address(path)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// A socket listening at `path`, or `nil` when it cannot be bound.
    public static func listening(at path: String) -> Int32? {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = address(path)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0, listen(descriptor, 8) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8.prefix($0.count - 1))) }
        return address
    }
}
