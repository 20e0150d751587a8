import ArgumentParser
import Foundation
import KeychainCore
import SecureStorageFoundation

/// `keychain migrate --from gnome-keyring`: the items of GNOME Keyring's keyring files
/// (`$XDG_DATA_HOME/keyrings/*.keyring`, by default `~/.local/share/keyrings`) into the keychain
/// as generic passwords (``GnomeKeyringImport`` says how items map). A dry run unless `--apply`,
/// like the other migrations; the keyring files are never changed.
struct GnomeKeyringMigration {
    /// `--from` takes this word instead of a file (a file of that name: `--from ./gnome-keyring`).
    static let sourceName = "gnome-keyring"

    let keychain: KeychainSelection
    /// `--keyring` (repeatable): the keyrings by name; all `*.keyring` files when empty.
    let keyringNames: [String]
    /// `--password-file`: the keyrings' password, from a file of the user's (mode 0600 or 0400).
    let passwordFile: String?
    let overwrite: Bool
    let apply: Bool
    let json: Bool

    /// The standard-input value read when no `--password-file` is given and input is piped.
    static let passwordInput = StandardInputUse(value: "the GNOME keyring password", elsewhere: "--password-file FILE")

    /// The keyrings directory: `$XDG_DATA_HOME/keyrings` when that is an absolute path, else
    /// `$HOME/.local/share/keyrings` (the XDG base directory rules gnome-keyring follows).
    static var keyringsDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("keyrings", isDirectory: true)
        }
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share/keyrings", isDirectory: true)
    }

    func run() throws {
        try StandardInput.plan([passwordFile == nil ? Self.passwordInput : nil, keychain.choice.passphraseInput()])
        let sources = try readKeyrings()
        let migration = GnomeKeyringImport(sources: sources, overwrite: overwrite)
        let items: [GnomeKeyringImport.PlannedItem]
        var resumed = false
        if apply {
            let target = try keychain.open(.creatingIfMissing)
            let report = try reportingErrors { try migration.run(in: target) }
            items = report.items
            resumed = report.resumed
        } else {
            // A dry run creates nothing: with no keychain yet, every item would be imported.
            let target = Keychain.exists(at: keychain.choice.location) ? try keychain.open(.reading) : nil
            items = try reportingErrors { try migration.plan(in: target) }
        }
        if json {
            print(try JSONText.render(json(items)))
        } else {
            for item in items {
                print(
                    PrintableText.sanitized(
                        "  \(item.keyring)/\(item.itemID)  → service \(item.service), account \(item.account)\(item.viewHint.map { ", view hint \($0)" } ?? "")  [\(item.action.rawValue)]"
                    ))
            }
        }
        func count(_ action: GnomeKeyringImport.Action) -> Int { items.filter { $0.action == action }.count }
        let conflicts = count(.conflict)
        let duplicates = items.filter(\.isDuplicate).count
        let summary =
            "\(count(.importItem)) imported, \(count(.skip)) skipped (already in the keychain), \(conflicts) conflict\(conflicts == 1 ? "" : "s"), \(count(.overwrite)) overwritten"
        if apply {
            printError(
                "\(summary)\(resumed ? " (finished an interrupted run)" : ""); every written item was read back and verified. The keyring files were not changed."
            )
        } else {
            printError("dry run: nothing changed. With --apply: \(summary).")
        }
        if duplicates > 0 {
            let one = duplicates == 1
            printError(
                "note: \(duplicates) item\(one ? " has" : "s have") the same service and account as an earlier one and \(one ? "keeps" : "keep") them; \(one ? "it is" : "they are") told apart by the view hint (kSecAttrSyncViewHint) \(SecretServiceAttributes.duplicateViewHintPrefix)gnome-keyring.KEYRING.ID, as the keychain's Secret Service does. find-generic-password -s SERVICE -a ACCOUNT finds the first, list shows every one, delete-generic-password -s SERVICE -a ACCOUNT deletes every one."
            )
        }
        if conflicts > 0 {
            printError(
                "keychain: \(conflicts) item\(conflicts == 1 ? " is" : "s are") already in the keychain with another secret, label or attributes and \(conflicts == 1 ? "was" : "were") left as \(conflicts == 1 ? "it is" : "they are"); add --overwrite to replace \(conflicts == 1 ? "it" : "them")."
            )
            throw ExitCode(ExitStatus.duplicate)
        }
    }

    /// Reads and parses each chosen keyring file, asking for each encrypted one's password.
    private func readKeyrings() throws -> [GnomeKeyringImport.Source] {
        let directory = Self.keyringsDirectory
        var names = keyringNames
        if names.isEmpty {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            names = files.filter { $0.hasSuffix(".keyring") && $0.count > 8 }.map { String($0.dropLast(8)) }.sorted()
            guard !names.isEmpty else {
                throw usageFailure(
                    "No GNOME keyring file (*.keyring) in \(directory.path): nothing to migrate. Set XDG_DATA_HOME if your keyrings are elsewhere."
                )
            }
        }
        for name in names where name.isEmpty || name.contains("/") || name.hasPrefix(".") {
            throw usageFailure("--keyring takes a keyring's name, such as login (the file name without .keyring).")
        }
        let files = try names.map { name in
            let path = directory.appendingPathComponent(name + ".keyring").path
            return (name: name, path: path, contents: try readKeyringFile(path, name: name))
        }
        let encrypted = files.filter { $0.contents.starts(with: Data("GnomeKeyring\n\r\0\n".utf8)) }.count
        var sharedPassword = try passwordFile.map { file in
            Data(try reportingErrors { try PassphraseSource.file(URL(fileURLWithPath: file)).read() }.utf8)
        }
        defer { if sharedPassword != nil { SecretWiping.wipe(&sharedPassword!) } }
        var sources: [GnomeKeyringImport.Source] = []
        for file in files {
            var password = Data()
            defer { SecretWiping.wipe(&password) }
            if file.contents.starts(with: Data("GnomeKeyring\n\r\0\n".utf8)) {
                password = try sharedPassword ?? readPassword(for: file.name, encryptedKeyrings: encrypted)
            }
            let keyring: GnomeKeyring
            do {
                keyring = try GnomeKeyring.parse(file.contents, password: password, keyringName: file.name)
            } catch {
                // A wrong password is 50, as the keychain's own; a damaged file 65, as a malformed source.
                printFailure(error)
                throw ExitCode(error.code == .authFailed ? ExitStatus.authFailed : ExitStatus.dataError)
            }
            sources.append(
                GnomeKeyringImport.Source(name: file.name, path: file.path, contents: file.contents, keyring: keyring))
        }
        return sources
    }

    /// A regular file of at most ``GnomeKeyring/maximumFileSize`` bytes, not followed through a link.
    private func readKeyringFile(_ path: String, name: String) throws -> Data {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw usageFailure("No GNOME keyring '\(name)': \(path) does not exist (or cannot be read).")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw usageFailure("\(path) is not a regular file (a link or a directory); nothing was read.")
        }
        guard Int(info.st_size) <= GnomeKeyring.maximumFileSize else {
            printFailure(
                KeychainError.gnomeKeyringTooLarge(
                    keyring: name, size: Int(info.st_size), limit: GnomeKeyring.maximumFileSize))
            throw ExitCode(ExitStatus.dataError)
        }
        guard let handle = FileHandle(forReadingAtPath: path),
            let data = try? handle.read(upToCount: GnomeKeyring.maximumFileSize + 1)
        else {
            printError("keychain: \(path) cannot be read (no permission?); nothing was imported.")
            throw ExitCode(ExitStatus.fileError)
        }
        try? handle.close()
        return data
    }

    /// The password of keyring `name` when no `--password-file` gives it: prompted on the
    /// terminal for each keyring, else one line of standard input (one encrypted keyring only).
    private func readPassword(for name: String, encryptedKeyrings: Int) throws -> Data {
        if !SecretInput.isInteractive && encryptedKeyrings > 1 {
            throw usageFailure(
                "Standard input carries one password, and \(encryptedKeyrings) keyrings are chosen: name one with --keyring NAME, or give --password-file FILE, or run on a terminal to be asked for each."
            )
        }
        return Data(try SecretInput.read(prompt: "Password for GNOME keyring '\(name)': ", as: Self.passwordInput).utf8)
    }

    private func json(_ items: [GnomeKeyringImport.PlannedItem]) -> [String: JSONValue] {
        [
            "applied": .bool(apply),
            "items": .array(
                items.map {
                    .object([
                        "keyring": .string($0.keyring), "id": .number(Int64($0.itemID)), "service": .string($0.service),
                        "account": .string($0.account), "action": .string($0.action.rawValue),
                        "duplicate": .bool($0.isDuplicate), "viewHint": $0.viewHint.map(JSONValue.string) ?? .null
                    ])
                })
        ]
    }
}
