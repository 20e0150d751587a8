import ArgumentParser
import Foundation
import KeychainCore

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write an encrypted, authenticated backup of every item that may leave this device.",
        discussion: """
            …ThisDeviceOnly and passcode-set items are never exported, as on Apple platforms. The \
            backup is protected by its own passphrase, so it can be imported into a keychain with \
            another device key: asked twice on a terminal, else from --backup-passphrase-file or \
            one line of standard input. Standard input carries one value only: with --unlock and \
            no terminal, give the keychain passphrase with --passphrase-file (or the backup's with \
            --backup-passphrase-file), or the command refuses and writes nothing.
            Examples:
              keychain export ~/keychain.backup --unlock
              keychain export /backup/keychain --passphrase-file /run/secrets/keychain-passphrase < backup-passphrase
            """)
    @OptionGroup var keychain: KeychainSelection
    @Argument(help: "The backup file to write (mode 0600).") var file: String
    @Flag(name: .customLong("force"), help: "Replace the file if it exists.") var force = false
    @OptionGroup var backup: BackupPassphraseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try StandardInput.plan([self.keychain.passphraseInput(), backup.standardInputUse])
        let keychain = try self.keychain.open(.reading)
        let passphrase = try backup.passphrase(new: true)
        let summary = try withProgress("exporting") { progress in
            try keychain.exportBackup(
                to: URL(fileURLWithPath: file), passphrase: passphrase, replacingExisting: force, progress: progress)
        }
        if output.json {
            print(
                try JSONText.render([
                    "file": .string(file), "exportedItems": .number(Int64(summary.exportedItems)),
                    "skippedThisDeviceOnlyItems": .number(Int64(summary.skippedThisDeviceOnlyItems)),
                    "skippedNonExtractableKeys": .number(Int64(summary.skippedNonExtractableKeys)),
                    "skippedProtectedItems": .number(Int64(summary.skippedProtectedItems))
                ]))
        }
        printError(
            "exported \(summary.exportedItems) item(s) to \(file); left out: \(summary.skippedThisDeviceOnlyItems) this-device-only item(s), "
                + "\(summary.skippedNonExtractableKeys) non-extractable key(s), \(summary.skippedProtectedItems) item(s) whose access control needs the user"
        )
    }
}

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Restore the items of a backup made by `keychain export`, in one transaction.",
        discussion: """
            A wrong passphrase, a damaged or tampered file, or a duplicate under --on-duplicate fail \
            imports nothing. Importing the same backup twice adds nothing the second time. \
            In a sync circle, a synchronizable item restored with exactly a value the circle \
            deleted is removed again at the next sync (the deletion stands); update it \
            (`keychain add-generic-password … -U`) or add it anew to bring it back on purpose.
            The backup passphrase is prompted for, or read from --backup-passphrase-file or one \
            line of standard input; with --unlock and no terminal, standard input carries only one \
            of the two passphrases (see `keychain export --help`).
            Example: keychain import ~/keychain.backup --on-duplicate replace
            """)
    @OptionGroup var keychain: KeychainSelection
    @Argument(help: "The backup file to read.") var file: String
    @Option(
        name: .customLong("on-duplicate"),
        help: "When an item exists: keep (the existing one; default), replace, or fail.")
    var onDuplicate: BackupDuplicatePolicy = .keepExisting
    @OptionGroup var backup: BackupPassphraseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try StandardInput.plan([self.keychain.passphraseInput(), backup.standardInputUse])
        // No keychain yet: the backup's passphrase is read and checked against the backup's
        // header first, so a refused input or a wrong passphrase creates nothing.
        let checkedFirst = self.keychain.exists ? nil : try checkedBackupPassphrase()
        let keychain = try self.keychain.open(.creatingIfMissing)
        let passphrase = try checkedFirst ?? backup.passphrase(new: false)
        let summary = try withProgress("importing") { progress in
            try keychain.importBackup(
                from: URL(fileURLWithPath: file), passphrase: passphrase, onDuplicate: onDuplicate, progress: progress)
        }
        if output.json {
            print(
                try JSONText.render([
                    "added": .number(Int64(summary.addedItems)), "replaced": .number(Int64(summary.replacedItems)),
                    "keptExisting": .number(Int64(summary.keptExistingItems)),
                    "skippedAtExport": .number(Int64(summary.skippedAtExport))
                ]))
        }
        printError(
            "imported \(file): \(summary.addedItems) added, \(summary.replacedItems) replaced, \(summary.keptExistingItems) kept existing"
        )
    }
}

extension Import {
    /// The backup's passphrase, checked against the backup's header.
    private func checkedBackupPassphrase() throws -> String {
        let passphrase = try backup.passphrase(new: false)
        try reportingErrors {
            try Keychain.checkBackupPassphrase(of: URL(fileURLWithPath: file), passphrase: passphrase)
        }
        return passphrase
    }
}

extension BackupDuplicatePolicy: ExpressibleByArgument {}

/// `--backup-passphrase-file`: the backup's passphrase from a file instead of a prompt or standard input.
struct BackupPassphraseOptions: ParsableArguments {
    @Option(
        name: .customLong("backup-passphrase-file"),
        help: ArgumentHelp(
            "Read the backup's passphrase from this file (yours, mode 0600 or 0400, one trailing newline ignored) instead of prompting.",
            valueName: "file"))
    var file: String?

    /// ``StandardInputUse/backupPassphrase`` unless the passphrase comes from a file.
    var standardInputUse: StandardInputUse? { file == nil ? .backupPassphrase : nil }

    /// The backup passphrase: from the file, else prompted (a `new` one twice on a terminal) or one line of standard input.
    func passphrase(new: Bool) throws -> String {
        if let file { return try reportingErrors { try PassphraseSource.file(URL(fileURLWithPath: file)).read() } }
        return new
            ? try SecretInput.readNew(prompt: "Backup passphrase: ", as: .backupPassphrase)
            : try SecretInput.read(prompt: "Backup passphrase: ", as: .backupPassphrase)
    }
}
