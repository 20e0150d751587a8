import ArgumentParser
import Foundation
import KeychainCore

struct SetPassphrase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-passphrase",
        abstract:
            "Protect the keychain with a passphrase: it becomes lockable, and whenUnlocked items need it in each new process.",
        discussion:
            "Reads the passphrase from the terminal (twice, no echo), from --passphrase-file, or one line of standard input."
    )
    @OptionGroup var keychain: KeychainSelection

    func run() throws {
        try StandardInput.plan([self.keychain.passphraseFile == nil ? .newPassphrase : nil])
        let keychain = try self.keychain.open(unlocking: false)
        let passphrase =
            try self.keychain.passphraseFile.map { file in
                try reportingErrors { try PassphraseSource.file(URL(fileURLWithPath: file)).read() }
            }
            ?? SecretInput.readNew(prompt: "New passphrase: ", as: .newPassphrase)
        try reportingErrors { try keychain.setPassphrase(passphrase) }
        printError("passphrase set (\(keychain.passphraseParameters?.description ?? "?"))")
    }
}

struct ChangePassphrase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-passphrase",
        abstract: "Change the passphrase: reads the current one, then the new one (twice on a terminal).",
        discussion: """
            Only the class keys are rewrapped, so this takes the same time for ten items as for a million. Unlock sessions end. \
            Also answers to set-keychain-password, as in macOS `security`; on a keychain without a passphrase it sets one (as set-passphrase).
            Without a terminal, standard input carries the new passphrase only, whether the keychain has one yet or not: \
            give the current one with --passphrase-file (or the systemd credential secure-storage-passphrase).
            Example: keychain change-passphrase --passphrase-file old-passphrase < new-passphrase
            """,
        aliases: ["set-keychain-password"])
    @OptionGroup var keychain: KeychainSelection

    func run() throws {
        // Line one is the new passphrase, never "the current one, unless there is none yet".
        let current =
            self.keychain.choice.passphraseInput(reading: true) == nil ? nil : StandardInputUse.currentPassphrase
        try StandardInput.plan([current, .newPassphrase])
        let keychain = try self.keychain.open(unlocking: false)
        guard keychain.hasPassphrase else {
            // macOS `security set-keychain-password` on a keychain without one just sets it.
            let passphrase = try SecretInput.readNew(prompt: "New passphrase: ", as: .newPassphrase)
            try reportingErrors { try keychain.setPassphrase(passphrase) }
            printError("passphrase set (\(keychain.passphraseParameters?.description ?? "?"))")
            return
        }
        let old =
            try self.keychain.choice.namedPassphrase()
            ?? SecretInput.read(prompt: "Current passphrase: ", as: .currentPassphrase)
        let new = try SecretInput.readNew(prompt: "New passphrase: ", as: .newPassphrase)
        try reportingErrors { try keychain.changePassphrase(from: old, to: new) }
        printError("passphrase changed")
    }
}

struct RemovePassphrase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-passphrase",
        abstract:
            "Remove the passphrase. Destroys every whenPasscodeSetThisDeviceOnly item, as removing a device passcode does.",
        discussion:
            "Reads the current passphrase from the terminal, --passphrase-file or one line of standard input. When passcode-set items exist, it asks for confirmation on a terminal; scripts must pass --yes."
    )
    @OptionGroup var keychain: KeychainSelection
    @Flag(name: .customLong("yes"), help: "Confirm that passcode-set items will be destroyed.") var confirmed = false

    func run() throws {
        try StandardInput.plan([self.keychain.choice.passphraseInput(reading: true) == nil ? nil : .currentPassphrase])
        let keychain = try self.keychain.open(unlocking: false)
        let doomed =
            try reportingErrors { try keychain.inventory() }.byAccessibility[.whenPasscodeSetThisDeviceOnly] ?? 0
        let current =
            try self.keychain.choice.namedPassphrase()
            ?? SecretInput.read(prompt: "Current passphrase: ", as: .currentPassphrase)
        if doomed > 0 && !confirmed {
            guard
                SecretInput.confirm(
                    "This destroys \(doomed) passcode-set item\(doomed == 1 ? "" : "s") for good. Continue?")
            else {
                printError(
                    "keychain: nothing changed; \(doomed) passcode-set item(s) would be destroyed. Pass --yes to confirm."
                )
                throw ExitCode(ExitStatus.usage)
            }
        }
        let destroyed = try reportingErrors { try keychain.removePassphrase(current: current) }
        printError("passphrase removed; \(destroyed) passcode-set item\(destroyed == 1 ? "" : "s") destroyed")
    }
}
