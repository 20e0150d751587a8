import ArgumentParser
import Foundation
import KeychainCore

struct Bind: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bind", abstract: "Seal the keychain's device secret in this machine's TPM: a copy of its files then opens nowhere else.",
        discussion: """
            The TPM is SECURE_STORAGE_TPM_TCTI when set (for example swtpm:path=/run/swtpm/sock), else \
            /dev/tpmrm0. Before the first ":" it names a TCTI (device, swtpm, mssim, tabrmd or libtpms, \
            loaded from the system's library directories), never a path to a library. The device key file is replaced in one atomic step after the TPM has given the \
            secret back once, so the keychain always opens with the old binding or the new one. Token \
            keys generated afterwards live in the TPM; earlier ones stay software keys.

            --pcr 7 also seals it to the Secure Boot state: after a change of keys, shim or firmware \
            settings the keychain does not open until that configuration is booted again. Run \
            `keychain bind --tpm` (no PCR: resealed, never in clear) before such a change and \
            `keychain bind --tpm --pcr 7` after it. The TPM must keep SHA-256 values for the PCRs.

            The device secret does not change: a copy of state/device.key made before binding still \
            holds it in clear, and an older sealed copy still opens on this machine.

            Examples:
              keychain bind --tpm
              keychain bind --tpm --pcr 7
            """)
    @OptionGroup var keychain: KeychainSelection
    @Flag(name: .customLong("tpm"), help: "Bind to the TPM (the only kind of binding).") var tpm = false
    @Option(name: .customLong("pcr"), help: ArgumentHelp("Also seal to this PCR's current value (SHA-256 bank, 0-23); repeat for several.", valueName: "index"))
    var pcrs: [Int] = []

    func validate() throws {
        guard tpm else { throw ValidationError("Say what to bind to: --tpm.") }
    }

    func run() throws {
        let keychain = try self.keychain.open()
        try reportingErrors { try keychain.bindToTPM(pcrs: pcrs) }
        printError("bound to \(keychain.deviceBinding)")
    }
}

struct Unbind: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unbind", abstract: "Take the device secret out of the TPM into a key file again, to move the keychain to another machine.",
        discussion: """
            Needs the keychain's passphrase (and the keychain to have one): once unbound, a copy of its \
            files opens on any machine, and the passphrase is what protects its items there. Token keys \
            that live in the TPM stay usable only on this machine.

            Moving a keychain: `keychain unbind` here, copy the data and state directories, then \
            `keychain bind --tpm` on the new machine.

            Example: keychain unbind --passphrase-file ~/.config/keychain-passphrase
            """)
    @OptionGroup var keychain: KeychainSelection

    func run() throws {
        let keychain = try self.keychain.open()
        let passphrase = try reportingErrors { try self.keychain.passphrase(for: keychain) }
        try reportingErrors { try keychain.unbindFromTPM(passphrase: passphrase) }
        printError("unbound: the device secret is in \(keychain.location.deviceKeyURL.path) again")
    }
}
