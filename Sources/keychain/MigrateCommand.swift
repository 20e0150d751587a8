import ArgumentParser
import Foundation
import KeychainCore
import KeychainServices
import SecureStorage

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract:
            "Move secrets out of UserDefaults plists, SharedPreferences XML, .env or JSON files, or GNOME Keyring, into the keychain.",
        discussion: """
            A dry run by default: prints the plan (keys, types, target service/account, protection), \
            never values. --apply runs plan → import → verify (read back and compare) → scrub the \
            source (atomic rewrite, same permissions). Each step is recorded in the keychain: if the \
            run is interrupted, run the same command again and it finishes the job. Without --key \
            or --match, secret-looking keys are selected (names like token/password/secret/api_key, \
            credential prefixes, URLs with a password or a token parameter such as \
            DATABASE_URL=postgres://app:pa55@db/app, high-entropy values); with them, the detector \
            is off unless --detect adds it.

            --from gnome-keyring imports the items of GNOME Keyring's keyring files \
            ($XDG_DATA_HOME/keyrings/*.keyring, by default ~/.local/share/keyrings), each keyring's \
            password prompted for (or read from --password-file, or one line of standard input), as \
            generic passwords: service from the attribute service (else the network server, else \
            the keyring's name), account from username/user/account, label from the display name, \
            every attribute kept in the item's generic attribute. Items already there with the same \
            secret are skipped; a different secret is a conflict, left alone unless --overwrite. The \
            keyring files are never changed.

            Examples:
              keychain migrate --from Library/Preferences/com.acme.app.plist
              keychain migrate --from .env --key API_TOKEN --match '*_PASSWORD' --apply
              keychain migrate --from auth.xml --service com.acme.app --apply
              keychain migrate --from gnome-keyring --keyring login --password-file pw.txt --apply
            """)
    @OptionGroup var keychain: KeychainSelection
    @Option(name: .customLong("from"), help: "The file to migrate from, or gnome-keyring.") var file: String
    @Option(name: .customLong("format"), help: "plist, shared-prefs, env or json (default: detected).") var format:
        SourceFormat?
    @Option(
        name: .customLong("key"),
        help: "A key to migrate (repeatable); JSON keys are paths such as auth.token or users[0].password.") var keys:
        [String] = []
    @Option(name: .customLong("match"), help: "A glob of keys to migrate (repeatable), e.g. '*token*'.") var patterns:
        [String] = []
    @Flag(name: .customLong("detect"), help: "Also select secret-looking keys when --key or --match is given.")
    var detect = false
    @Option(
        name: .customLong("service"),
        help:
            "The keychain service the values go to (default: the file name, without .plist or .xml: com.acme.app.plist → com.acme.app, app.env → app.env)."
    ) var service: String?
    @Option(
        name: .customLong("sensitivity"),
        help: "public, private (default: background-readable, this device only), secret, topSecret.") var sensitivity:
        SensitivityArgument = .private
    @Option(name: .customLong("access-group"), help: "The access group of the migrated items.") var accessGroup: String?
    @Flag(name: .customLong("apply"), help: "Run the migration (without it, only the plan is shown).") var apply = false
    @Flag(name: .customLong("keep-source"), help: "Leave the source file as it is.") var keepSource = false
    @Flag(
        name: .customLong("backup-copy"),
        help:
            "Before scrubbing, copy the source to FILE.pre-migration (0600 from its first byte; a file of another user in the way stops the run)."
    ) var backupCopy = false
    @Option(
        name: .customLong("keyring"),
        help: "With --from gnome-keyring: a keyring to import, by name (repeatable; default: every *.keyring file).")
    var keyrings: [String] = []
    @Option(
        name: .customLong("password-file"),
        help:
            "With --from gnome-keyring: read the keyrings' password from this file (yours, mode 0600 or 0400, one trailing newline ignored)."
    ) var passwordFile: String?
    @Flag(
        name: .customLong("overwrite"),
        help: "With --from gnome-keyring: replace items already in the keychain with another secret.")
    var overwrite = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        if file == GnomeKeyringMigration.sourceName {
            let fileOnly = [
                ("--format", format != nil), ("--key", !keys.isEmpty), ("--match", !patterns.isEmpty),
                ("--detect", detect), ("--service", service != nil), ("--access-group", accessGroup != nil),
                ("--backup-copy", backupCopy)
            ]
            if let (option, _) = fileOnly.first(where: { $0.1 }) {
                throw usageFailure(
                    "\(option) applies to file migrations, not to --from gnome-keyring (which imports every item of the chosen keyrings and never changes them)."
                )
            }
            return try GnomeKeyringMigration(
                keychain: keychain, keyringNames: keyrings, passwordFile: passwordFile, overwrite: overwrite,
                apply: apply, json: output.json
            ).run()
        }
        if !keyrings.isEmpty || passwordFile != nil || overwrite {
            throw usageFailure("--keyring, --password-file and --overwrite apply to --from gnome-keyring only.")
        }
        let migration = SourceMigration(
            file: URL(fileURLWithPath: file), format: format,
            selection: KeySelection(
                names: keys, patterns: patterns, detectSecrets: detect || (keys.isEmpty && patterns.isEmpty)),
            service: service, sensitivity: sensitivity.value, accessGroup: accessGroup)
        let plan = try reportingMigrationErrors { try migration.plan() }
        if !migration.selection.detectSecrets {
            printError(
                "note: only the keys --key and --match name are selected; add --detect to select secret-looking keys too."
            )
        }
        guard apply else {
            if output.json { print(try JSONText.render(Self.json(plan, report: nil))) } else { Self.printPlan(plan) }
            printError(
                "dry run: nothing changed. Add --apply to migrate \(plan.items.count) key\(plan.items.count == 1 ? "" : "s")."
            )
            return
        }
        if !output.json { Self.printPlan(plan) }  // shown before anything moves
        try useTargetKeychain()  // only now: a dry run or a bad file creates nothing
        let report = try reportingMigrationErrors {
            try withProgress("migrating") { progress in
                try migration.run(keepSource: keepSource, keepBackupCopy: backupCopy, progress: progress)
            }
        }
        if output.json { print(try JSONText.render(Self.json(report.plan, report: report))) }
        let source = report.sourceScrubbed ? "removed from \(file)" : "still in \(file) (--keep-source)"
        if report.alreadyMigrated {
            printError("already migrated: nothing to do.")
        } else if report.migratedKeys.isEmpty {
            printError("no key selected: nothing to do, the file was not touched.")
            return
        } else {
            printError(
                "migrated \(report.migratedKeys.count) key(s)\(report.resumed ? " (finished an interrupted run)" : ""); verified in the keychain; \(source)."
            )
        }
        printError("recommendation: \(report.recommendation)")
    }

    /// Points the SecureStorage facade, which runs the migration, at the keychain the values go to.
    private func useTargetKeychain() throws {
        #if canImport(Security) && !SECURE_STORAGE_FORCE_PORTABLE
        // On Apple platforms the facade stores in the system Keychain, where the apps read.
        guard keychain.path == nil else {
            throw usageFailure(
                "On Apple platforms migrate stores in the system Keychain, where apps using SecureStorage read; --keychain cannot choose a file keychain here (a build with SECURE_STORAGE_FORCE_PORTABLE=1 can)."
            )
        }
        #else
        SecItemEnvironment.useKeychain(try keychain.open(.creatingIfMissing))
        #endif
    }

    private static func printPlan(_ plan: MigrationPlan) {
        // The keys come from the file being migrated: shown made safe (PrintableText).
        print(
            PrintableText.sanitized(
                "\(plan.file) (\(plan.format.rawValue)) → service \(plan.service), \(plan.sensitivity)"))
        for item in plan.items {
            print(PrintableText.sanitized("  \(item.key)  \(item.type)  → account \(item.account)  [\(item.reason)]"))
        }
        print("  \(plan.untouchedKeys) other key\(plan.untouchedKeys == 1 ? " stays" : "s stay") in the file")
    }

    private static func json(_ plan: MigrationPlan, report: MigrationReport?) -> [String: JSONValue] {
        var object: [String: JSONValue] = [
            "file": .string(plan.file), "format": .string(plan.format.rawValue), "service": .string(plan.service),
            "protection": .string("\(plan.sensitivity.protection)"),
            "untouchedKeys": .number(Int64(plan.untouchedKeys)),
            "items": .array(
                plan.items.map {
                    .object([
                        "key": .string($0.key), "type": .string($0.type), "account": .string($0.account),
                        "reason": .string($0.reason)
                    ])
                }),
            "applied": .bool(report != nil)
        ]
        if let report {
            object["migratedKeys"] = .array(report.migratedKeys.map(JSONValue.string))
            object["sourceScrubbed"] = .bool(report.sourceScrubbed)
            object["resumed"] = .bool(report.resumed)
            object["recommendation"] = .string(report.recommendation)
        }
        return object
    }

    /// Prints a migration failure and exits with its documented status.
    private func reportingMigrationErrors<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as MigrationError {
            printFailure(error)
            throw ExitCode(ExitStatus.of(error))
        }
    }
}

/// `--sensitivity`.
enum SensitivityArgument: String, ExpressibleByArgument, CaseIterable {
    case `public`, `private`, secret, topSecret

    var value: Sensitivity {
        switch self {
        case .public: .public
        case .private: .private
        case .secret: .secret
        case .topSecret: .topSecret
        }
    }
}

extension SourceFormat: ExpressibleByArgument {}
