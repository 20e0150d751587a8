import ArgumentParser
import Foundation
import KeychainCore

struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a new keychain (fails with status 45 if one exists); --passphrase protects it at once.",
        discussion:
            "Examples:\n  keychain create --keychain ~/work-keychain --passphrase\n  keychain create --passphrase-file /run/secrets/keychain-passphrase   # no terminal needed\n  keychain create",
        aliases: ["create-keychain"])
    @OptionGroup var keychain: KeychainSelection
    @Flag(
        name: .customLong("passphrase"),
        help:
            "Ask for a passphrase (twice on a terminal, or one line of standard input) and set it; with --passphrase-file, set the one in that file."
    ) var withPassphrase = false

    func run() throws {
        loggingConfigured
        let location = keychain.location
        let passphrase: String? =
            if let file = keychain.passphraseFile {
                try reportingErrors { try PassphraseSource.file(URL(fileURLWithPath: file)).read() }
            } else if withPassphrase {
                try SecretInput.readNew(prompt: "New keychain passphrase: ", as: .newPassphrase)
            } else {
                nil
            }
        // One transaction: the keychain never exists without its passphrase.
        let created = try reportingErrors { try Keychain.create(at: location, passphrase: passphrase) }
        printError(
            "created \(location.databaseURL.path)\(passphrase == nil ? "" : " with a passphrase (\(created.passphraseParameters?.description ?? "?"))")"
        )
    }
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the keychain's paths, lock state, passphrase, item counts, device binding and format.",
        discussion: "Example: keychain status --json",
        aliases: ["show-keychain-info"])
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var output: OutputOptions

    func run() throws {
        let keychain = try self.keychain.open(.reading)
        let inventory = try reportingErrors { try keychain.inventory() }
        let deviceBinding = keychain.deviceBinding  // read from the device key file once
        var info: [String: JSONValue] = [
            "path": .string(keychain.location.databaseURL.path),
            "lockState": .string(keychain.lockState.rawValue),
            "hasPassphrase": .bool(keychain.hasPassphrase),
            "deviceBinding": Self.bindingJSON(deviceBinding, of: keychain),
            "formatVersion": .number(Int64(keychain.formatVersion)),
            "vaultID": .string(keychain.vaultID.uuidString),
            "defaultAccessGroup": .string(keychain.options.defaultAccessGroup),
            "items": .object(
                Dictionary(
                    uniqueKeysWithValues: ItemClass.storedClasses.map {
                        ($0.rawValue, .number(Int64(inventory.byClass[$0] ?? 0)))
                    })),
            "itemsByAccessibility": .object(
                Dictionary(
                    uniqueKeysWithValues: inventory.byAccessibility.map { ($0.key.rawValue, .number(Int64($0.value))) })
            ),
            "passphraseKDF": keychain.passphraseParameters.map { .string($0.description) } ?? .null,
            "unlockSession": keychain.unlockSession.map { session in
                .object([
                    "expires": session.expiry.map { .string(ISO8601DateFormatter().string(from: $0)) }
                        ?? .string("at lock or logout")
                ])
            } ?? .null
        ]
        info["totalItems"] = .number(Int64(inventory.total))
        let agent = AgentLookup.of(keychain)
        agent.reportRefusal()
        if let agentJSON = Self.agentJSON(agent) { info["agent"] = agentJSON }
        if output.json {
            print(try JSONText.render(info))
            return
        }
        let session =
            keychain.unlockSession.map {
                " (unlock session until \($0.expiry.map { ISO8601DateFormatter().string(from: $0) } ?? "lock or logout"))"
            } ?? ""
        print(
            """
            keychain:        \(keychain.location.databaseURL.path)
            device binding:  \(Self.bindingText(deviceBinding, of: keychain))
            format version:  \(keychain.formatVersion)
            passphrase:      \(keychain.passphraseParameters.map { "set, \($0)" } ?? "none (always unlocked)")
            lock state:      \(keychain.lockState.rawValue)\(session)
            access group:    \(keychain.options.defaultAccessGroup) (default for new items)
            items:           \(inventory.total) (\(ItemClass.storedClasses.map { "\($0.rawValue) \(inventory.byClass[$0] ?? 0)" }.joined(separator: ", ")))
            """)
        if let line = Self.agentText(agent) { print("agent:           \(line)") }
    }
}

extension Status {
    /// `{"pid", "since", "lockState", "sessionExpires"}` for a serving agent, `{"refused": why}`
    /// for a refused one, `nil` without one (the key is then absent).
    static func agentJSON(_ agent: AgentLookup) -> JSONValue? {
        switch agent {
        case .none: return nil
        case .refused(let error): return .object(["refused": .string(error.message)])
        case .agent(let client):
            let status = client.status
            return .object([
                "pid": .number(Int64(status.pid)),
                "since": .string(ISO8601DateFormatter().string(from: status.since)),
                "lockState": .string(status.lockState.rawValue),
                "sessionExpires": status.sessionExpiry.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null
            ])
        }
    }

    /// `keychaind pid N since …, unlocked`, or why an agent was refused; `nil` without one.
    static func agentText(_ agent: AgentLookup) -> String? {
        switch agent {
        case .none: return nil
        case .refused: return "not used (see the warning above)"
        case .agent(let client):
            let status = client.status
            return
                "keychaind pid \(status.pid) since \(ISO8601DateFormatter().string(from: status.since)), \(status.lockState.rawValue)"
        }
    }
}

extension Status {
    /// `{"kind": "tpm"|"key-file", "path", "isProtectedBySecureHardware", "tcti", "pcrs", "tpmAvailable"}`.
    static func bindingJSON(_ deviceBinding: DeviceBinding, of keychain: Keychain) -> JSONValue {
        var binding: [String: JSONValue] = ["path": .string(keychain.location.deviceKeyURL.path)]
        switch deviceBinding {
        case .keyFile:
            binding["kind"] = .string("key-file")
            binding["tpmAvailable"] = keychain.options.tpm.map { .string($0.tcti) } ?? .null
        case .tpm(let device, let pcrs):
            binding["kind"] = .string("tpm")
            binding["tcti"] = .string(device.tcti)
            binding["pcrs"] = .array(pcrs.map { .number(Int64($0)) })
        }
        binding["isProtectedBySecureHardware"] = .bool(deviceBinding.isProtectedBySecureHardware)
        return .object(binding)
    }

    /// `TPM (<tcti>), sealed to PCR 7: <path>`, or `key file <path>` with a hint when a TPM is there.
    static func bindingText(_ deviceBinding: DeviceBinding, of keychain: Keychain) -> String {
        let path = keychain.location.deviceKeyURL.path
        switch deviceBinding {
        case .keyFile:
            let hint =
                keychain.options.tpm.map {
                    " (not hardware-bound; a TPM is available at \($0.tcti): `keychain bind --tpm`)"
                } ?? " (not hardware-bound: no TPM)"
            return "key file \(path)\(hint)"
        case .tpm:
            return "\(deviceBinding), sealed blob in \(path)"
        }
    }
}

struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract:
            "Lock the keychain: end the unlock session, so later commands need the passphrase for whenUnlocked items.",
        discussion: "Processes that already unlocked the keychain keep their own state until they lock or exit.",
        aliases: ["lock-keychain"])
    @OptionGroup var keychain: KeychainSelection

    func run() throws {
        let keychain = try self.keychain.open()
        let agent = AgentLookup.of(keychain)
        agent.reportRefusal()
        try reportingErrors { try keychain.lock() }  // through the agent when one serves the keychain
        printError("locked \(keychain.location.databaseURL.path)\(agent.agentName.map { " (and \($0))" } ?? "")")
    }
}

struct Unlock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock the keychain for later commands of this user until --timeout passes or `keychain lock`.",
        discussion: """
            The unlock is kept as a ticket in $XDG_RUNTIME_DIR/secure-storage, or in \
            /run/user/<uid>/secure-storage without XDG_RUNTIME_DIR; that directory must be your own \
            (0700) and memory-backed (tmpfs), or unlock refuses (status 53) rather than write to \
            disk. Where there is neither (a root shell, a container, CI, cron), the ticket is a key \
            in the kernel keyring instead: your persistent keyring (dropped after three days unused), \
            readable by you and root only, removed by the kernel when the session expires. Where the \
            kernel keyring is blocked too (Docker's default seccomp profile), unlock refuses (status \
            53): make a runtime directory (install -d -m 700 /dev/shm/keychain-$(id -u) && export \
            XDG_RUNTIME_DIR=/dev/shm/keychain-$(id -u)), or unlock each command with --passphrase-file. \
            The ticket holds only a session key; `keychain lock`, from any shell, ends the session for \
            every copy of it. A wrong passphrase is reported (status 50) before anything else.
            Services unlock without a prompt: from a file (--passphrase-file, which must be yours \
            and unreadable by others), or from the systemd credential secure-storage-passphrase, \
            which is used when $CREDENTIALS_DIRECTORY holds it (LoadCredential=).
            With --serve-prompts (keychaind must serve the keychain, and standard input must be a \
            terminal) the terminal answers unlock requests instead: when a program asks the agent \
            to unlock (a Secret Service client's Unlock, say), it prints who asks and reads the \
            passphrase (empty or Ctrl-D declines; three wrong ones decline), then waits for the \
            next request until Ctrl-C. One terminal serves prompts at a time; --timeout sets how \
            long each unlock lasts. While no terminal serves prompts, such requests are refused at once.
            Examples:
              keychain unlock                 # prompts; 15 minutes
              keychain unlock --timeout 0     # until `keychain lock` or logout
              keychain unlock --passphrase-file /etc/acme/keychain-passphrase --timeout 0
              keychain unlock --serve-prompts --timeout 0   # answer programs' unlock requests here
            """,
        aliases: ["unlock-keychain"])
    @OptionGroup var keychain: KeychainSelection
    @Option(name: .customLong("timeout"), help: "Seconds the unlock lasts; 0 means until `keychain lock` or logout.")
    var timeout: Int = 900
    @Flag(
        name: .customLong("serve-prompts"),
        help: "Stay in this terminal and answer programs' unlock requests through keychaind (Ctrl-C stops).")
    var servePrompts = false

    func validate() throws {
        if timeout < 0 { throw ValidationError("--timeout must be 0 or more seconds.") }
        if servePrompts, keychain.passphraseFile != nil || keychain.unlock {
            throw ValidationError(
                "--serve-prompts reads passphrases at the terminal; drop --passphrase-file and --unlock.")
        }
    }

    func run() throws {
        if servePrompts { return try runServingPrompts() }
        // The passphrase is read whatever the keychain's state, so standard input is its own.
        try StandardInput.plan([self.keychain.passphraseInput(reading: true)])
        let keychain = try self.keychain.open(unlocking: false)
        guard keychain.hasPassphrase else {
            printError(
                "keychain: \(keychain.location.databaseURL.path) has no passphrase, so it is always unlocked. Set one with `keychain set-passphrase`."
            )
            throw ExitCode(ExitStatus.usage)
        }
        // A keychaind of this user that serves the keychain gets the passphrase and keeps the
        // session (the engine sends it there); a process of another uid on its name gets nothing.
        let agent = AgentLookup.of(keychain)
        agent.reportRefusal()
        try reportingErrors {
            let passphrase = try self.keychain.passphrase(for: keychain)
            try keychain.unlock(passphrase: passphrase, keepingSessionFor: timeout == 0 ? nil : .seconds(timeout))
        }
        printError(
            "unlocked \(timeout == 0 ? "until `keychain lock` or logout" : "for \(timeout) seconds")\(agent.agentName.map { " by \($0)" } ?? "")"
        )
    }
}

extension Unlock {
    /// `--serve-prompts`: refuses without a terminal or an agent, then serves (``PromptServing``).
    func runServingPrompts() throws {
        guard SecretInput.isInteractive else {
            try reportingErrors { () throws -> Never in throw KeychainError.promptsNeedATerminal() }
        }
        let keychain = try self.keychain.open(unlocking: false)
        let lookup = AgentLookup.of(keychain)
        guard case .agent(let agent) = lookup else {
            lookup.reportRefusal()
            try reportingErrors { () throws -> Never in
                throw KeychainError.promptsNeedAnAgent(path: keychain.location.databaseURL.path)
            }
        }
        try PromptServing(keychain: keychain, agent: agent, duration: timeout == 0 ? nil : .seconds(timeout)).run()
    }
}

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract:
            "Check the whole keychain: SQLite structure, and every item's authenticity and indexes. Exit 52 on damage.",
        discussion:
            "Items of locked classes cannot be checked: then the status is 51 (nothing damaged among the items checked) or 52; unlock first (--unlock, --passphrase-file FILE) for a complete check.\nExample: keychain verify --unlock --json"
    )
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var output: OutputOptions

    func run() throws {
        let keychain = try self.keychain.open(.reading)
        let report = try withProgress("verifying") { progress in try keychain.verify(progress: progress) }
        if output.json {
            print(
                try JSONText.render([
                    "clean": .bool(report.isClean),
                    "verifiedItems": .number(Int64(report.verifiedItems)),
                    "lockedItems": .number(Int64(report.lockedItemCount)),
                    "damagedItems": .array(
                        report.damagedItems.map { item in
                            .object([
                                "row": .number(item.rowID), "class": .string(item.itemClass),
                                "problem": .string(item.problem),
                                "service": item.service.map(JSONValue.string) ?? .null,
                                "account": item.account.map(JSONValue.string) ?? .null,
                                "persistentReference": item.persistentReference.map {
                                    .string($0.data.base64EncodedString())
                                } ?? .null
                            ])
                        }),
                    "databaseProblems": .array(report.databaseProblems.map(JSONValue.string)),
                    "stateProblem": report.stateProblem.map(JSONValue.string) ?? .null
                ]))
        } else {
            print("verified \(report.verifiedItems) item\(report.verifiedItems == 1 ? "" : "s")")
            // What the file says (class names, planted object names) is shown safe for a terminal.
            for problem in report.databaseProblems { print(PrintableText.sanitized("database: \(problem)")) }
            for item in report.damagedItems { print("DAMAGED \(item)") }
            if let problem = report.stateProblem { print(PrintableText.sanitized("STATE: \(problem)")) }
            if report.lockedItemCount > 0 {
                printError(
                    "\(report.lockedItemCount) item(s) not checked because the keychain is locked; run with --unlock for a complete check."
                )
            }
        }
        if !report.isClean {
            printError(
                "keychain: \(report.damagedItems.count) damaged item(s)\(report.databaseProblems.isEmpty ? "" : ", database damage")\(report.stateProblem == nil ? "" : ", rows missing, added, edited or replayed"). Delete damaged items, or restore the keychain from a backup (`keychain import`)."
            )
            throw ExitCode(ExitStatus.integrity)
        }
        // Not a complete check: a health check must not pass on a keychain it could not read.
        if report.lockedItemCount > 0 {
            if output.json {
                printError(
                    "\(report.lockedItemCount) item(s) not checked because the keychain is locked; run with --unlock for a complete check."
                )
            }
            throw ExitCode(ExitStatus.locked)
        }
    }
}
