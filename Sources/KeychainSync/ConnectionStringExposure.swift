/// Why a libpq connection string must not appear on a command line, where every local user can
/// read it (`ps`, `/proc/PID/cmdline`) for as long as the process runs: see
/// ``KeychainSynchronizer/commandLineExposure(of:)``.
public enum ConnectionStringExposure: Sendable, Hashable, CustomStringConvertible {
    /// libpq reads a secret from the string under `keyword`: `password` (also for a
    /// `postgresql://` URI's `user:password@` or `?password=`) or `sslpassword`.
    case secret(keyword: String)
    /// libpq cannot read the string (or is not installed), so it cannot be shown to hold no
    /// password; `reason` says why without quoting the string.
    case unreadable(reason: String)

    /// What was found, never the secret itself.
    public var description: String {
        switch self {
        case .secret(let keyword):
            "libpq reads a password from it (its \(keyword) keyword, or the password part of a postgresql:// URI)"
        case .unreadable(let reason): reason
        }
    }
}
