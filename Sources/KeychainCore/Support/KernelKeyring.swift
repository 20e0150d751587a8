import CKernelKeyring
import Foundation
import SecureStorageFoundation

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

    /// How long a key without an expiry of its own lives unused: one day. Each use of the
    /// session (``refresh(_:ifItHolds:maximumSize:)``) starts the day again, so the ticket of a
    /// keychain that is used stays, while that of an abandoned or deleted keychain goes by itself
    /// instead of holding part of the user's keyring quota forever.
    static let idleLifetime: UInt32 = 86_400

    /// A new "user" key, made but not yet in the ring: ``commit()`` puts it there in place of
    /// the key of the same description, ``discard()`` (or ending the process) drops it.
    struct StagedKey {
        let key: Int32
        let description: String
        let ring: Int32

        /// Links the key into the ring, which displaces an earlier key of its description in one
        /// step, then invalidates that earlier key (gone for every holder) and drops the staging link.
        func commit() throws(KeychainError) {
            let earlier = kernel_keyring_search_user_key(ring, description)
            guard kernel_keyring_link(key, ring) == 0 else {
                let code = errno
                KernelKeyring.discard(key, from: kernel_keyring_process_keyring())
                throw KernelKeyring.refused(code)
            }
            if earlier >= 0, earlier != key { KernelKeyring.discard(earlier, from: ring) }
            _ = kernel_keyring_unlink(key, kernel_keyring_process_keyring())
        }

        /// Drops the key; the ring is as it was.
        func discard() {
            KernelKeyring.discard(key, from: kernel_keyring_process_keyring())
        }
    }

    /// Makes `payload` a "user" key named `description` in this process's own keyring, with
    /// owner-only permissions and a kernel timeout of `lifetime` seconds (``idleLifetime`` when
    /// `nil`), without touching the ring: the key that is there now stays in use until
    /// ``StagedKey/commit()``. A key that cannot be made owner-only is removed and refused.
    ///
    /// - Throws: `.keychainUnavailable` when the kernel refuses the key; for a full keyring quota
    ///   (`EDQUOT`) the message names the quota, the user's use of it and how to free it.
    static func stage(_ payload: Data, as description: String, lifetime seconds: UInt32?) throws(KeychainError)
        -> StagedKey
    {
        let ring = try ring()
        let key = payload.withUnsafeBytes { bytes in
            kernel_keyring_add_user_key(description, bytes.baseAddress, bytes.count, kernel_keyring_process_keyring())
        }
        guard key >= 0 else { throw refused(errno) }
        guard kernel_keyring_set_owner_only_permissions(key) == 0,
            kernel_keyring_set_timeout(key, seconds ?? idleLifetime) == 0
        else {
            let code = errno
            discard(key, from: kernel_keyring_process_keyring())
            throw KeychainError.sessionKeyNotPrivate(reason: String(cString: strerror(code)))
        }
        return StagedKey(key: key, description: description, ring: ring)
    }

    /// Stores `payload` as the "user" key `description` at once, in place of any key of that name:
    /// ``stage(_:as:lifetime:)`` then ``StagedKey/commit()``.
    static func store(_ payload: Data, as description: String, lifetime seconds: UInt32?) throws(KeychainError) {
        try stage(payload, as: description, lifetime: seconds).commit()
    }

    /// Restarts the idle timeout (``idleLifetime``) of the key `description` when it still holds
    /// `payload`: a session without an expiry that is used lives on.
    static func refresh(_ description: String, ifItHolds payload: Data, maximumSize: Int) {
        guard let current = read(description, maximumSize: maximumSize), current.payload == payload else { return }
        _ = kernel_keyring_set_timeout(current.key, idleLifetime)
    }

    /// The error for an `add_key` or link the kernel refused with `errno` `code`.
    static func refused(_ code: Int32) -> KeychainError {
        guard code == EDQUOT else {
            return KeychainError.keyringRefusedSession(reason: String(cString: strerror(code)))
        }
        return KeychainError.keyringQuotaExhausted(quota: quota)
    }

    /// This user's keyring quota as the kernel states it, such as
    /// "20000 bytes (/proc/sys/kernel/keys/maxbytes) and 200 keys (/proc/sys/kernel/keys/maxkeys)".
    private static var quota: String {
        let prefix = PlatformIO.currentUserID == 0 ? "root_max" : "max"
        func value(_ name: String) -> String {
            let text = (try? String(contentsOfFile: "/proc/sys/kernel/keys/\(prefix)\(name)", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return text.flatMap { Int($0) }.map(String.init) ?? "a limited number of"
        }
        return
            "\(value("bytes")) bytes (/proc/sys/kernel/keys/\(prefix)bytes) and \(value("keys")) keys (/proc/sys/kernel/keys/\(prefix)keys)"
    }

    /// Removes the "user" key `description`, if there is one.
    static func remove(_ description: String) {
        guard let ring = try? ring() else { return }
        let key = kernel_keyring_search_user_key(ring, description)
        if key >= 0 { discard(key, from: ring) }
    }

    /// Removes `key` when it still holds `payload` (another process may have replaced it meanwhile).
    static func remove(_ description: String, ifItHolds payload: Data, maximumSize: Int) {
        guard let current = read(description, maximumSize: maximumSize), current.payload == payload,
            let ring = try? ring()
        else { return }
        discard(current.key, from: ring)
    }

    /// Invalidates `key` (gone at once for every holder), or, on kernels before 3.5, revokes and unlinks it.
    fileprivate static func discard(_ key: Int32, from ring: Int32) {
        if kernel_keyring_invalidate(key) != 0 { _ = kernel_keyring_revoke_and_unlink(key, ring) }
    }

    /// The error for a kernel that refuses keyring calls (`errno` `code`).
    static func unavailable(_ code: Int32) -> KeychainError {
        let blocked = code == EPERM || code == ENOSYS || code == EACCES
        let reason = blocked ? "; container runtimes block it by default, as Docker's seccomp profile does" : ""
        return KeychainError.noRuntimeDirectoryNorKeyring(reason: String(cString: strerror(code)), blockedNote: reason)
    }

    /// What works without a runtime directory or a kernel keyring.
    static let alternatives =
        "Either give sessions a memory-backed directory of your own (`install -d -m 700 /dev/shm/keychain-$(id -u) && export XDG_RUNTIME_DIR=/dev/shm/keychain-$(id -u)`), or unlock in each command instead, with --passphrase-file FILE or the systemd credential secure-storage-passphrase (Keychain.unlock(from:) in code)."
}
