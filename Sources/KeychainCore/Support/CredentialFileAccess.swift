import CExtendedAttributes
import Foundation
import SecureStorageFoundation

/// Who can read a systemd credential, from its mode and POSIX ACL, checked on the open descriptor.
///
/// systemd keeps a credential root's, mode 0400, and grants the service's user read access with
/// an ACL entry; the ACL's mask then shows as group bits in the mode. Group bits are therefore
/// accepted only when the file's ACL proves that they are that mask: the ACL may name the owner
/// and the current user, and nobody else (no owning group, no other named user or group, no
/// others) may hold any permission. Without an ACL, group bits are a group's real access and are
/// refused.
enum CredentialFileAccess {
    /// The tags of `system.posix_acl_access` entries (Linux's on-disk ACL format).
    private enum Tag: UInt16 {
        case owner = 0x01, namedUser = 0x02, owningGroup = 0x04, namedGroup = 0x08, mask = 0x10, others = 0x20
    }

    /// Throws when anyone besides the file's owner (the current user or root) and the current
    /// user could read or write the credential open as `fd`.
    static func check(fd: Int32, info: stat, path: String, currentUser: UInt32) throws(KeychainError) {
        guard info.st_uid == currentUser || info.st_uid == 0 else {
            throw KeychainError.credentialOwnedByAnotherUser(path: path, owner: info.st_uid, currentUser: currentUser)
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o007 == 0 else { throw readableByOthers(path, mode: mode, who: "every user") }
        guard mode & 0o070 != 0 else { return }
        guard let entries = accessControlList(fd: fd) else {
            throw readableByOthers(
                path, mode: mode, who: "its group (it has no ACL whose mask the group bits could be)")
        }
        for (tag, permissions, id) in entries {
            switch tag {
            case .owner, .mask: continue
            case .namedUser where id == currentUser: continue
            case .namedUser:
                if permissions != 0 { throw readableByOthers(path, mode: mode, who: "user id \(id) (an ACL entry)") }
            case .owningGroup:
                if permissions != 0 { throw readableByOthers(path, mode: mode, who: "its group (an ACL entry)") }
            case .namedGroup:
                if permissions != 0 { throw readableByOthers(path, mode: mode, who: "group id \(id) (an ACL entry)") }
            case .others:
                if permissions != 0 { throw readableByOthers(path, mode: mode, who: "every user (an ACL entry)") }
            }
        }
    }

    /// The ACL entries of the file, or `nil` when it has none (or the file system keeps none).
    /// An ACL that cannot be parsed is treated as one granting access to others.
    private static func accessControlList(fd: Int32) -> [(Tag, UInt16, UInt32)]? {
        #if os(Linux)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let size = fgetxattr(fd, "system.posix_acl_access", &buffer, buffer.count)
        guard size >= 4 else { return nil }
        let bytes = Array(buffer[0..<size])
        guard littleEndian32(bytes, at: 0) == 2, (size - 4) % 8 == 0 else { return [(.others, 7, 0)] }
        return stride(from: 4, to: size, by: 8).map { offset in
            let rawTag = UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
            let permissions = UInt16(bytes[offset + 2]) | UInt16(bytes[offset + 3]) << 8
            guard let tag = Tag(rawValue: rawTag) else { return (.others, 7, 0) }
            return (tag, permissions, littleEndian32(bytes, at: offset + 4))
        }
        #else
        return nil
        #endif
    }

    private static func littleEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        let low = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
        return low | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    private static func readableByOthers(_ path: String, mode: mode_t, who: String) -> KeychainError {
        KeychainError.credentialReadableByOthers(path: path, mode: mode, who: who)
    }
}
