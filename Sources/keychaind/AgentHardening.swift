import CProcessHardening
import Foundation
import Logging
import SecureStorageFoundation

/// What keychaind does to its own process first, before it reads a passphrase or opens a key:
///
/// - No core dump: RLIMIT_CORE 0 (soft and hard), and not dumpable (`PR_SET_DUMPABLE` 0): no
///   core even through a `core_pattern` pipe, no `ptrace` attach and no `/proc/<pid>/mem` for
///   other processes of the user (the same as ``SecureStorage.hardenProcess()`` in the facade).
/// - `/proc/self/coredump_filter` 0: should a dump be taken all the same (the kernel's own
///   crash handling), anonymous and file-backed memory is left out of it. This stands in for
///   `MADV_DONTDUMP` on each key buffer: swift-crypto allocates its keys itself, so the agent
///   cannot mark them one by one, and the filter covers the whole heap.
/// - Memory locked (`mlockall`, on fault) so keys and passphrases never reach swap, but only
///   where the locked-memory limit cannot be hit (RLIMIT_MEMLOCK unlimited, or CAP_IPC_LOCK):
///   with a finite limit (8 MiB for users, usually), a later allocation would fail and the agent
///   would crash, which is worse. Where it is skipped, an encrypted swap (or none) is the remedy.
enum AgentHardening {
    /// Applies the steps; returns what it did, for the log.
    static func apply() -> [String] {
        var done: [String] = []
        try? "0".write(toFile: "/proc/self/coredump_filter", atomically: false, encoding: .utf8)
        done.append("coredump_filter 0")
        done.append(process_hardening_disable_dumping() == 0 ? "no core dumps, not dumpable" : "DUMPING NOT DISABLED")
        if canLockAllMemory {
            done.append(process_hardening_lock_memory() == 0 ? "memory locked" : "memory lock refused")
        } else {
            done.append("memory not locked (finite RLIMIT_MEMLOCK, no CAP_IPC_LOCK)")
        }
        return done
    }

    /// Whether `mlockall(MCL_FUTURE)` cannot run into the locked-memory limit.
    private static var canLockAllMemory: Bool {
        if process_hardening_memory_lock_unlimited() == 1 { return true }
        // CAP_IPC_LOCK (capability 14) in the effective set lifts the limit.
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let mask = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << 14) != 0
    }
}
