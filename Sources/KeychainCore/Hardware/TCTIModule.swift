/// Which TCTI (tpm2-tss's transport library) a ``TPMDevice`` names, and the library that is
/// loaded for it.
///
/// tpm2-tss reads a TCTI string as `name:configuration` and loads `name` with dlopen: a name
/// with a `/` is a path to any shared library, which would then run inside this process.
/// Only the TCTIs below are accepted, by name, and each is loaded by its soname
/// (`libtss2-tcti-NAME.so.0`), which the dynamic loader finds only in the system's library
/// directories. The configuration after the first `:` may hold paths (`swtpm:path=/run/swtpm/sock`,
/// `device:/dev/tpmrm0`). `cmd` (runs the program its configuration names) and `pcap` (loads
/// another TCTI that its environment names) are refused too.
enum TCTIModule {
    /// The TCTI names accepted: the kernel's device, the software TPMs, the access broker.
    static let names = ["device", "swtpm", "mssim", "tabrmd", "libtpms"]

    /// The string for `Tss2_TctiLdr_Initialize`: the TCTI's soname and configuration.
    /// - Returns: `nil` when `tcti` names a TCTI that is not accepted (see ``refusal(of:)``).
    static func loaderString(for tcti: String) -> String? {
        let (name, configuration) = split(tcti)
        guard
            let known = names.first(where: {
                name == $0 || name == "libtss2-tcti-\($0).so.0" || name == "libtss2-tcti-\($0).so"
            })
        else { return nil }
        return "libtss2-tcti-\(known).so.0" + (configuration.map { ":" + $0 } ?? "")
    }

    /// Why `tcti` is refused: what happened and what to do.
    static func refusal(of tcti: String) -> String {
        let name = split(tcti).name
        let what =
            name.contains("/")
            ? "names a library by its path (\(name)), which would be loaded into this process"
            : "names the TCTI \"\(name)\", which the keychain does not load"
        return
            "The TPM's TCTI \"\(tcti)\" (\(TPMDevice.environmentVariable) or KeychainOptions.tpm) \(what); nothing was changed. Name one of \(names.joined(separator: ", ")) before the first \":\" (for example swtpm:path=/run/swtpm/sock or device:/dev/tpmrm0): it is loaded by name from the system's library directories, and only the part after the \":\" may hold a path. Set \(TPMDevice.environmentVariable)=none to use no TPM."
    }

    /// The module part (before the first `:`) and the configuration (after it, if any).
    private static func split(_ tcti: String) -> (name: String, configuration: String?) {
        guard let colon = tcti.firstIndex(of: ":") else { return (tcti, nil) }
        return (String(tcti[..<colon]), String(tcti[tcti.index(after: colon)...]))
    }
}
