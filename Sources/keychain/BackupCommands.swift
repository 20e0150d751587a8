import ArgumentParser
import Foundation
import KeychainCore

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write an encrypted, authenticated backup of every item that may leave this device.",
        discussion: """
            …ThisDeviceOnly and passcode-set items are never exported, as on Apple platforms. The \
            backup is protected by its own passphrase (asked twice on a terminal, or one line of \
            standard input after the keychain passphrase when --unlock is given), so it can be \
            imported into a keychain with another device key.
            Example: keychain export ~/keychain.backup --unlock
            """)
    @OptionGroup var keychain: KeychainSelection
    @Argument(help: "The backup file to write (mode 0600).") var file: String
    @Flag(name: .customLong("force"), help: "Replace the file if it exists.") var force = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        let keychain = try self.keychain.open(.reading)
        let passphrase = try SecretInput.readNew(prompt: "Backup passphrase: ")
        let summary = try withProgress("exporting") { progress in
            try keychain.exportBackup(to: URL(fileURLWithPath: file), passphrase: passphrase, replacingExisting: force, progress: progress)
        }
        if output.json {
            print(try JSONText.render(["file": .string(file), "exportedItems": .number(Int64(summary.exportedItems)),
                                       "skippedThisDeviceOnlyItems": .number(Int64(summary.skippedThisDeviceOnlyItems)),
                                       "skippedNonExtractableKeys": .number(Int64(summary.skippedNonExtractableKeys)),
                                       "skippedProtectedItems": .number(Int64(summary.skippedProtectedItems))]))
        }
        printError("exported \(summary.exportedItems) item(s) to \(file); left out: \(summary.skippedThisDeviceOnlyItems) this-device-only item(s), "
                   + "\(summary.skippedNonExtractableKeys) non-extractable key(s), \(summary.skippedProtectedItems) item(s) whose access control needs the user")
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
            Example: keychain import ~/keychain.backup --on-duplicate replace
            """)
    @OptionGroup var keychain: KeychainSelection
    @Argument(help: "The backup file to read.") var file: String
    @Option(name: .customLong("on-duplicate"), help: "When an item exists: keep (the existing one; default), replace, or fail.")
    var onDuplicate: BackupDuplicatePolicy = .keepExisting
    @OptionGroup var output: OutputOptions

    func run() throws {
        let keychain = try self.keychain.open(.creatingIfMissing)
        let passphrase = try SecretInput.read(prompt: "Backup passphrase: ")
        let summary = try withProgress("importing") { progress in
            try keychain.importBackup(from: URL(fileURLWithPath: file), passphrase: passphrase, onDuplicate: onDuplicate, progress: progress)
        }
        if output.json {
            print(try JSONText.render(["added": .number(Int64(summary.addedItems)), "replaced": .number(Int64(summary.replacedItems)),
                                       "keptExisting": .number(Int64(summary.keptExistingItems)),
                                       "skippedAtExport": .number(Int64(summary.skippedAtExport))]))
        }
        printError("imported \(file): \(summary.addedItems) added, \(summary.replacedItems) replaced, \(summary.keptExistingItems) kept existing")
    }
}

extension BackupDuplicatePolicy: ExpressibleByArgument {}
