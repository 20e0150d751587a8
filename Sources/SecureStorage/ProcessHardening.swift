import CProcessHardening

extension SecureStorage {
    /// Keeps this process's memory — unlocked class keys, decrypted secrets — out of core dumps
    /// and away from debuggers run by the same user.
    ///
    /// The core-file limit drops to 0, soft and hard, so the process cannot raise it again. On
    /// Linux the process also becomes non-dumpable: no core even through a `core_pattern` pipe, no
    /// `ptrace` attach by other processes of the user, and `/proc/<pid>/mem` closed to them. Call
    /// it first in `main`, before any secret is read; the `keychain` tool does, before it parses
    /// its arguments. Servers should too.
    ///
    /// ```swift
    /// @main
    /// struct Server {
    ///     static func main() async throws {
    ///         SecureStorage.hardenProcess()
    ///         // … open the keychain, start serving
    ///     }
    /// }
    /// ```
    ///
    /// Key buffers are not also marked `MADV_DONTDUMP`: with core dumps off there is nothing left
    /// for it to exclude, and swift-crypto allocates its keys itself.
    ///
    /// - Returns: whether every step succeeded; a step fails only where the system refuses it
    ///   (a seccomp filter, for example). Calling it again is harmless.
    @discardableResult
    public static func hardenProcess() -> Bool {
        process_hardening_disable_dumping() == 0
    }
}
