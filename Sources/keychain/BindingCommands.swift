import ArgumentParser
import Foundation
import KeychainCore

struct Bind: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bind",
        abstract:
            "Seal a new device secret in this machine's TPM: a copy of the keychain's files then opens nowhere else.",
        discussion: """
            The TPM is SECURE_STORAGE_TPM_TCTI when set (for example swtpm:path=/run/swtpm/sock), else \
            /dev/tpmrm0. Before the first ":" it names a TCTI (device, swtpm, mssim, tabrmd or libtpms, \
            loaded from the system's library directories), never a path to a library. Every bind (and \
            rebind, for example with other PCRs) makes a new device secret, seals it (the TPM gives it \
            back once before anything is written) and rewrites the keychain's keys, header and row \
            seals under it, so it takes longer on a keychain with many items. A keychain with a \
            passphrase needs it (asked for, or --passphrase-file). The rewritten database commits \
            first and the new state/device.key replaces the old one after it: killed at any point, \
            the keychain opens with the old binding or the new one. Other processes that have the \
            keychain open must open it again. Token keys generated afterwards live in the TPM; \
            earlier ones stay software keys.

            --pcr 7 also seals it to the Secure Boot state: after a change of keys, shim or firmware \
            settings the keychain does not open until that configuration is booted again. Run \
            `keychain bind --tpm` (no PCR: resealed, never in clear) before such a change and \
            `keychain bind --tpm --pcr 7` after it. The TPM must keep SHA-256 values for the PCRs.

            A copy of state/device.key made before binding (the old secret in clear), or an older \
            sealed copy, opens nothing in the keychain afterwards. It still opens a copy of the whole \
            keychain made before the bind (such a copy is an old keychain: delete old copies).

            Examples:
              keychain bind --tpm
              keychain bind --tpm --pcr 7
            """)
    @OptionGroup var keychain: KeychainSelection
    @Flag(name: .customLong("tpm"), help: "Bind to the TPM (the only kind of binding).") var tpm = false
    @Option(
        name: .customLong("pcr"),
        help: ArgumentHelp(
            "Also seal to this PCR's current value (SHA-256 bank, 0-23); repeat for several.", valueName: "index"))
    var pcrs: [Int] = []

    func validate() throws {
        guard tpm else { throw ValidationError("Say what to bind to: --tpm.") }
    }

    func run() throws {
        // The passphrase is read once, here, not again by --unlock: one value on standard input.
        try StandardInput.plan([self.keychain.passphraseInput(reading: true)])
        let keychain = try self.keychain.open(unlocking: false)
        // A keychain with a passphrase needs it: the keys it protects are rewrapped under the new secret.
        let passphrase: String? =
            if keychain.hasPassphrase { try reportingErrors { try self.keychain.passphrase(for: keychain) } } else {
                nil
            }
        try reportingErrors { try keychain.bindToTPM(pcrs: pcrs, passphrase: passphrase) }
        printError("bound to \(keychain.deviceBinding)")
    }
}

struct Unbind: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unbind",
        abstract:
            "Take the device secret out of the TPM into a key file again, to move the keychain to another machine.",
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
        try StandardInput.plan([self.keychain.passphraseInput(reading: true)])
        let keychain = try self.keychain.open(unlocking: false)
        let passphrase = try reportingErrors { try self.keychain.passphrase(for: keychain) }
        try reportingErrors { try keychain.unbindFromTPM(passphrase: passphrase) }
        printError("unbound: the device secret is in \(keychain.location.deviceKeyURL.path) again")
    }
}
