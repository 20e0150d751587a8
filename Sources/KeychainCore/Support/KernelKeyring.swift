#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CKernelKeyring
import Foundation

/// Small secrets kept in the Linux kernel's key retention service, for processes of the same
/// user that have no runtime directory (a root shell, a container, CI, cron): memory the kernel
/// never writes to disk, in a keyring no other user can add keys to, so nothing can be squatted.
///
/// The keyring is the user's persistent keyring (`KEYCTL_GET_PERSISTENT`, made for processes
/// without a login session; it expires after `/proc/sys/kernel/keys/persistent_keyring_expiry`
/// seconds unused, three days by default), or the user keyring where the kernel has no
/// persistent keyrings. Keys are of type "user", readable and changeable by their owner (and
/// whoever possesses them) only, with nothing for the group or others.
enum KernelKeyring {
    /// The keyring this process keeps keys in; the persistent one is linked into the process
    /// keyring, so the process possesses it and every key in it.
    ///
    /// - Throws: `.keychainUnavailable` when the kernel refuses keyring calls (a container
    ///   runtime's seccomp profile, such as Docker's default, blocks them), naming what works instead.
    static func ring() throws(KeychainError) -> Int32 {
        let persistent = kernel_keyring_get_persistent(kernel_keyring_process_keyring())
        if persistent >= 0 { return persistent }
        let code = errno
        // No persistent keyrings in this kernel (CONFIG_PERSISTENT_KEYRINGS off): the user keyring.
        if code == EOPNOTSUPP || code == EINVAL { return kernel_keyring_user_keyring() }
        throw unavailable(code)
    }

    /// The payload of the "user" key `description`, or `nil` when there is none (or it cannot be
    /// read, or is larger than `maximumSize`).
    static func read(_ description: String, maximumSize: Int) -> (key: Int32, payload: Data)? {
        guard let ring = try? ring() else { return nil }
        let key = kernel_keyring_search_user_key(ring, description)
        guard key >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: maximumSize)
        defer { SecretWiping.wipe(&buffer) }
        let length = kernel_keyring_read(key, &buffer, buffer.count)
        guard length >= 0, length <= buffer.count else { return nil }
        return (key, Data(buffer[0..<length]))
    }

    /// Stores `payload` as the "user" key `description`, replacing any key of that name, with
    /// owner-only permissions and, when `lifetime` is given, a kernel timeout after which the
    /// key is gone. A key of that name that cannot be made owner-only is removed and refused.
    static func store(_ payload: Data, as description: String, lifetime seconds: UInt32?) throws(KeychainError) {
        let ring = try ring()
        remove(description)       // a fresh key: no permissions or timeout of an earlier one survive
        let key = payload.withUnsafeBytes { bytes in
            kernel_keyring_add_user_key(description, bytes.baseAddress, bytes.count, ring)
        }
        guard key >= 0 else {
            let code = errno
            throw KeychainError(.keychainUnavailable, "The kernel keyring refused the unlock session (\(String(cString: strerror(code)))), so no session was kept. \(alternatives)")
        }
        guard kernel_keyring_set_owner_only_permissions(key) == 0,
              kernel_keyring_set_timeout(key, seconds ?? 0) == 0 else {
            let code = errno
            discard(key, from: ring)
            throw KeychainError(.keychainUnavailable, "The unlock session's key in the kernel keyring could not be made private to you or given its expiry (\(String(cString: strerror(code)))); it was removed and no session was kept. \(alternatives)")
        }
    }

    /// Removes the "user" key `description`, if there is one.
    static func remove(_ description: String) {
        guard let ring = try? ring() else { return }
        let key = kernel_keyring_search_user_key(ring, description)
        if key >= 0 { discard(key, from: ring) }
    }

    /// Removes `key` when it still holds `payload` (another process may have replaced it meanwhile).
    static func remove(_ description: String, ifItHolds payload: Data, maximumSize: Int) {
        guard let current = read(description, maximumSize: maximumSize), current.payload == payload, let ring = try? ring() else { return }
        discard(current.key, from: ring)
    }

    /// Invalidates `key` (gone at once for every holder), or, on kernels before 3.5, revokes and unlinks it.
    private static func discard(_ key: Int32, from ring: Int32) {
        if kernel_keyring_invalidate(key) != 0 { _ = kernel_keyring_revoke_and_unlink(key, ring) }
    }

    /// The error for a kernel that refuses keyring calls (`errno` `code`).
    static func unavailable(_ code: Int32) -> KeychainError {
        let blocked = code == EPERM || code == ENOSYS || code == EACCES
        let reason = blocked ? "; container runtimes block it by default, as Docker's seccomp profile does" : ""
        return KeychainError(.keychainUnavailable, "There is no runtime directory ($XDG_RUNTIME_DIR, or /run/user/\(PlatformIO.currentUserID) as systemd makes it) and the kernel keyring is not available to this process (keyctl: \(String(cString: strerror(code)))\(reason)), so no unlock session can be kept. \(alternatives)")
    }

    /// What works without a runtime directory or a kernel keyring.
    static let alternatives = "Either give sessions a memory-backed directory of your own (`install -d -m 700 /dev/shm/keychain-$(id -u) && export XDG_RUNTIME_DIR=/dev/shm/keychain-$(id -u)`), or unlock in each command instead, with --passphrase-file FILE or the systemd credential secure-storage-passphrase (Keychain.unlock(from:) in code)."
}
