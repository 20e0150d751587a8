import Foundation

/// A TPM 2.0 that keychains can be bound to, named by a tpm2-tss TCTI configuration string.
///
/// ```swift
/// // The machine's TPM through the kernel's resource manager (what discovery finds first):
/// let tpm = TPMDevice(tcti: "device:/dev/tpmrm0")
/// // A software TPM (swtpm) listening on a Unix socket, as the tests use:
/// let simulator = TPMDevice(tcti: "swtpm:path=/tmp/tpm/sock")
/// ```
///
/// ``discovered(environment:)`` is what a keychain uses unless ``KeychainOptions/tpm`` says
/// otherwise: `SECURE_STORAGE_TPM_TCTI` when set (the value `none` disables the TPM), else
/// `/dev/tpmrm0` when this process may read and write it. Nothing is opened until a keychain
/// needs the TPM, and every use holds the connection only for that operation.
///
/// Several processes may share a TPM through the kernel's resource manager (`/dev/tpmrm0`) or
/// tpm2-abrmd. A software TPM or `/dev/tpm0` reached directly has no resource manager: use it
/// from one process at a time (within a process, operations on one TPM are serialized).
///
/// - Important: the part before the first `:` must name one of the TCTIs `device`, `swtpm`,
///   `mssim`, `tabrmd` or `libtpms`, which is loaded by its soname (`libtss2-tcti-NAME.so.0`)
///   from the system's library directories. A name that is a path (it contains `/`), and the
///   `cmd` and `pcap` TCTIs (which run a program or load another library), are refused with
///   `invalidParameter` when the TPM is first used, so `SECURE_STORAGE_TPM_TCTI` cannot load a
///   library of its own into the process. The part after the `:` may hold paths.
public struct TPMDevice: Sendable, Hashable, CustomStringConvertible {
    /// The TCTI configuration, for example `device:/dev/tpmrm0` or `swtpm:path=/run/swtpm/sock`.
    public var tcti: String
    /// How long one TPM operation (a connection and its few commands) may take before it fails
    /// with `keychainUnavailable`: a TPM that never answers must not hang an open holding the
    /// keychain's lock. Default 30 seconds; the ECC commands used take milliseconds to a second each.
    public var responseTimeout: Duration

    /// A TPM reached through the given TCTI configuration string.
    public init(tcti: String, responseTimeout: Duration = .seconds(30)) {
        self.tcti = tcti
        self.responseTimeout = responseTimeout
    }

    /// The environment variable naming the TCTI; `none` means "use no TPM".
    public static let environmentVariable = "SECURE_STORAGE_TPM_TCTI"

    /// The kernel's TPM resource manager, which lets several processes share the TPM.
    public static let kernelResourceManager = "/dev/tpmrm0"

    /// The TPM this process would use: `SECURE_STORAGE_TPM_TCTI` (unless empty or `none`), else
    /// the kernel resource manager when it exists and this user may open it for reading and
    /// writing (on most distributions: root, or members of the `tss` group); otherwise `nil`.
    public static func discovered(environment: [String: String] = ProcessInfo.processInfo.environment) -> TPMDevice? {
        if let configured = environment[environmentVariable] {
            let value = configured.trimmingCharacters(in: .whitespaces)
            return value.isEmpty || value == "none" ? nil : TPMDevice(tcti: value)
        }
        guard FileManager.default.isReadableFile(atPath: kernelResourceManager),
            FileManager.default.isWritableFile(atPath: kernelResourceManager)
        else { return nil }
        return TPMDevice(tcti: "device:\(kernelResourceManager)")
    }

    /// Whether the TCTI names a software TPM (`swtpm`, `mssim`): a binding to it resists copying
    /// the files elsewhere, but its seeds are files on this machine, not secure hardware.
    public var isSimulator: Bool {
        let kind = tcti.prefix { $0 != ":" }.lowercased()
        return kind == "swtpm" || kind == "mssim" || kind.contains("libtss2-tcti-swtpm")
            || kind.contains("libtss2-tcti-mssim")
    }

    /// Whether this build can use a TPM at all (tpm2-tss is linked on Linux only).
    public static var isSupported: Bool {
        #if canImport(CTSS2)
        true
        #else
        false
        #endif
    }

    /// The TCTI string (it holds no secret).
    public var description: String { tcti }
}
