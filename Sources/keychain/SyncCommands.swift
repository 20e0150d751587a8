import ArgumentParser
import Foundation
import KeychainCore
import KeychainSync

/// `keychain sync …`: end-to-end encrypted sync of synchronizable items with other devices
/// through a PostgreSQL server.
struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sync synchronizable items with your other devices, end-to-end encrypted, through PostgreSQL.",
        discussion: """
            Items with kSecAttrSynchronizable true and an accessibility that is not …ThisDeviceOnly \
            sync, as in iCloud Keychain. The server stores only ciphertext under keys the devices \
            hold. --server takes a libpq connection string; keep the password in ~/.pgpass or \
            PGPASSWORD, not in the string.

            Examples:
              keychain sync create --server "host=db.example.com dbname=keychain user=alice"
              keychain sync join --server "host=db.example.com dbname=keychain user=alice" --circle CODE
              keychain sync approve                            # on a member: type the code join printed
              keychain sync now
              keychain sync watch                              # keep syncing (a server, a systemd unit)
              keychain sync status --json
              keychain sync remove old-phone                   # a lost device: new circle key

            Exit status: 52 the server's answers failed verification (nothing was applied); \
            65 a circle or approval code with a typo (refused before anything is sent), or one that \
            matches nothing; 69 the server cannot be reached (local changes stay queued in the \
            keychain); 75 `join`: not approved yet (run `keychain sync join` again after the \
            approval); otherwise as for other commands.
            """,
        subcommands: [
            SyncCreate.self, SyncJoin.self, SyncApprove.self, SyncNow.self, SyncWatch.self, SyncStatusCommand.self,
            SyncLeave.self, SyncRemove.self
        ]
    )
}

struct SyncCreate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a sync circle with this keychain as its first device, and print its circle code.",
        discussion: "Example: keychain sync create --server \"host=/run/postgresql dbname=keychain\" --name laptop")
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var server: SyncServerOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let connection = try server.connection()
        let keychain = try self.keychain.open(.creatingIfMissing)
        let code = try reportingSyncErrors {
            try KeychainSynchronizer(keychain: keychain).createCircle(server: connection, deviceName: server.deviceName)
        }
        if output.json {
            print(try JSONText.render(["circleCode": .string(code)]))
        } else {
            print(
                "Created a sync circle. On another device, join it with:\n  keychain sync join --server '<connection>' --circle \(code)"
            )
        }
    }
}

struct SyncJoin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Ask to join a circle, print the approval code for a member, and wait for the approval.",
        discussion: """
            Run `keychain sync approve` on a device of the circle and type the code printed here (it is the join's secret: \
            read it out, do not paste it into a shared place). The circle code's last group is a check: a typo in it is \
            refused (status 65) before anything is sent. \
            Without --circle, finishes a join asked for earlier; with --name as well, files that request again under \
            the new name, with a new approval code (unless a member approved it already). \
            Exits with status 75 when the approval has not come within --wait seconds: run `keychain sync join` again \
            (without --circle) once a member approved.

            Example: keychain sync join --server "host=db.example.com dbname=keychain" --circle ABCD-…
            """)
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var server: SyncServerOptions
    @Option(
        name: .customLong("circle"),
        help: ArgumentHelp("The circle code `keychain sync status` shows on a member.", valueName: "code"))
    var circle: String?
    @Option(
        name: .customLong("wait"),
        help: ArgumentHelp(
            "How many seconds to wait for the approval (0: return at once; status 75 until approved: run `keychain sync join` again later).",
            valueName: "seconds"))
    var wait = 600
    @OptionGroup var output: OutputOptions

    func run() throws {
        // Checked before anything else, with or without --circle: a --server holding a password
        // is refused at once, not left in the process list while the join waits.
        let connection = circle != nil || server.server != nil ? try server.connection() : nil
        let keychain = try self.keychain.open(.creatingIfMissing)
        let synchronizer = KeychainSynchronizer(keychain: keychain)
        // Asked again without --name, a waiting request keeps its name (and its approval code).
        let pendingName = try reportingSyncErrors { try synchronizer.pendingJoinName() }
        var approval: String?
        if let circle, let connection {
            approval = try reportingSyncErrors {
                try synchronizer.requestToJoin(
                    server: connection, circleCode: circle, deviceName: server.name ?? pendingName ?? server.deviceName)
            }
        } else if let name = server.name, pendingName != nil {
            approval = try reportingSyncErrors { try synchronizer.renameJoinRequest(to: name) }
        }
        if let approval {
            // With --json the one JSON object comes at the end; the person who types the code
            // on a member reads it on standard error meanwhile. Either way it is written at once
            // (standard output is line-buffered), also into a pipe or a journal.
            let instruction = "On a device of the circle, run `keychain sync approve` and type:\n  \(approval)\n"
            if output.json {
                FileHandle.standardError.write(Data(instruction.utf8))
            } else {
                print(instruction, terminator: "")
            }
        }
        let report = try reportingSyncErrors {
            try synchronizer.finishJoiningWithReport(timeout: .seconds(max(0, wait)))
        }
        let joined = report != nil
        if output.json {
            var object: [String: JSONValue] = ["joined": .bool(joined)]
            if let report { object["revokedCopiesRemoved"] = .number(Int64(report.revokedCopiesRemoved)) }
            if let approval { object["approvalCode"] = .string(approval) }
            print(try JSONText.render(object))
        } else {
            print(
                joined
                    ? "Joined the circle; synchronizable items are synced."
                    : "Not approved yet (waited \(max(0, wait)) s): once a member ran `keychain sync approve` with the approval code, run `keychain sync join` again to finish joining."
            )
            if let report, let line = SyncNow.revokedCopiesLine(report) { print(line) }
        }
        if !joined { throw ExitCode(ExitStatus.notApprovedYet) }
    }
}

struct SyncApprove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve", abstract: "Let the device that printed an approval code join the circle.",
        discussion: """
            The approval code `keychain sync join` printed on the new device is read from the terminal (or one line of \
            standard input), never from the command line: it is the join's secret, and the process list and the shell \
            history would show it. Its last group is a check: a typo is refused (status 65) before anything is sent. \
            Prints the name and id of the device let in.

            Examples:
              keychain sync approve                       (then type the code)
              echo "$CODE" | keychain sync approve
            Piped, standard input carries the code only: unlock with --passphrase-file or `keychain unlock` first.
            """)
    @OptionGroup var keychain: KeychainSelection

    func run() throws {
        try StandardInput.plan([self.keychain.passphraseInput(), .approvalCode])
        let keychain = try self.keychain.open(.existing)
        let code = try SecretInput.read(prompt: "Approval code shown by `keychain sync join`: ", as: .approvalCode)
        let member = try reportingSyncErrors { try KeychainSynchronizer(keychain: keychain).approveDevice(code) }
        // The name is the joining device's choice: shown made safe for the terminal.
        print(PrintableText.sanitized("Approved device \(member.name) (\(member.deviceID.uuidString.lowercased()))."))
    }
}

struct SyncNow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now", abstract: "Pull the other devices' changes, merge, and push this device's.",
        discussion: """
            Examples:
              keychain sync now --json
              keychain sync now --verify        # also check every record the device already had
              keychain sync now --compact       # then remove deletions every member has merged from the server
            """)
    @OptionGroup var keychain: KeychainSelection
    @Flag(
        name: .customLong("verify"),
        help:
            "Read and check every record of the circle, not only the new ones, so a record the server dropped is noticed even when this device already had it."
    )
    var verify = false
    @Flag(
        name: .customLong("compact"),
        help:
            "After syncing, remove from the server the deletion records every member has merged (`keychain sync watch` does this daily)."
    )
    var compact = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        let keychain = try self.keychain.open(.existing)
        let synchronizer = KeychainSynchronizer(keychain: keychain)
        let report = try reportingSyncErrors { try synchronizer.syncNow(verifyingEverything: verify) }
        let compacted =
            compact && report.deferredWhileLocked == 0
            ? try reportingSyncErrors { try synchronizer.compactDeletions() } : 0
        if output.json {
            print(
                try JSONText.render([
                    "compactedDeletions": .number(Int64(compacted)),
                    "received": .number(Int64(report.received)), "applied": .number(Int64(report.applied)),
                    "pushed": .number(Int64(report.pushed)),
                    "conflicts": .number(Int64(report.conflicts)),
                    "deferredWhileLocked": .number(Int64(report.deferredWhileLocked)),
                    "protectedItemsNotSynced": .number(Int64(report.protectedItemsNotSynced)),
                    "counter": .number(report.counter),
                    "itemsRead": .number(Int64(report.itemsRead)),
                    "revokedCopiesRemoved": .number(Int64(report.revokedCopiesRemoved))
                ]))
        } else {
            var line =
                "Synced: \(report.applied) change(s) applied here, \(report.pushed) pushed, \(report.conflicts) conflict(s) decided."
            if report.deferredWhileLocked > 0 { line += " \(report.deferredWhileLocked) wait for `keychain unlock`." }
            if report.protectedItemsNotSynced > 0 {
                line += " \(report.protectedItemsNotSynced) item(s) needing user presence do not sync."
            }
            if compact { line += " \(compacted) deletion record(s) every member had were removed from the server." }
            print(line)
            if let revoked = Self.revokedCopiesLine(report) { print(revoked) }
        }
    }

    /// What a sync says when it removed copies of values the circle deleted (restored from a
    /// backup, say), and how to bring one back on purpose; `nil` when it removed none.
    static func revokedCopiesLine(_ report: SyncReport) -> String? {
        guard report.revokedCopiesRemoved > 0 else { return nil }
        return
            "Removed \(report.revokedCopiesRemoved) item(s) here that held exactly a value the circle deleted (restored from a backup, say): "
            + "the deletion stands. To bring one back on purpose, add it again, or update it after restoring it (`keychain add-generic-password … -U`)."
    }
}

struct SyncWatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract:
            "Keep syncing until interrupted: after every local write, when another device pushes, and every --interval seconds.",
        discussion: """
            For a server or a systemd unit. Prints one line per sync (JSON with --json), each written \
            as it happens, also into a pipe or the journal; a server that cannot be reached is retried with backoff (1 s up to 5 min). Stops on SIGINT or SIGTERM.

            Example: keychain sync watch --interval 300 --json
            """)
    @OptionGroup var keychain: KeychainSelection
    @Option(
        name: .customLong("interval"),
        help: ArgumentHelp("Seconds between syncs when nothing announced a change.", valueName: "seconds"))
    var interval = 60
    @OptionGroup var output: OutputOptions

    func run() throws {
        let keychain = try self.keychain.open(.existing)
        let json = output.json
        let background = KeychainSynchronizer(keychain: keychain).startInBackground(
            pollInterval: .seconds(max(1, interval))
        ) { event in
            switch event {
            case .success(let report):
                print(
                    json
                        ? "{\"applied\":\(report.applied),\"pushed\":\(report.pushed),\"conflicts\":\(report.conflicts),\"counter\":\(report.counter),\"revokedCopiesRemoved\":\(report.revokedCopiesRemoved)}"
                        : "synced: \(report.applied) applied, \(report.pushed) pushed, counter \(report.counter)"
                            + (report.revokedCopiesRemoved > 0
                                ? ", \(report.revokedCopiesRemoved) restored copy(ies) of deleted item(s) removed" : "")
                )
            case .failure(let error):
                printFailure(error)
            }
        }
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM].map { signalNumber -> DispatchSourceSignal in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber)
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        stop.wait()
        sources.forEach { $0.cancel() }
        background.stop()
    }
}

struct SyncStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the circle: its code, members, the state this device verified, the last sync.",
        discussion:
            "Compare the counter across devices: a device that shows less than another has verified is being shown an older state (the server withholds).\n\nExample: keychain sync status --json"
    )
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var output: OutputOptions

    func run() throws {
        let keychain = try self.keychain.open(.reading)
        let status = try reportingSyncErrors { try KeychainSynchronizer(keychain: keychain).status() }
        let formatter = ISO8601DateFormatter()
        if output.json {
            print(
                try JSONText.render([
                    "circleCode": status.circleCode.map { .string($0) } ?? .null,
                    "deviceID": .string(status.deviceID.uuidString.lowercased()),
                    "deviceName": .string(status.deviceName), "isMember": .bool(status.isMember),
                    "counter": .number(status.verifiedCounter),
                    "syncedItems": .number(Int64(status.syncedRecords)),
                    "generation": .number(Int64(status.generation)),
                    "rosterFingerprint": .string(status.rosterFingerprint),
                    "lastSync": status.lastSync.map { .string(formatter.string(from: $0)) } ?? .null,
                    "members": .array(status.members.map { json($0, formatter) }),
                    "departed": .array(status.departed.map { json($0, formatter) })
                ]))
            return
        }
        guard status.isMember else {
            print(
                PrintableText.sanitized(
                    "Waiting for approval to join the circle as \(status.deviceName): run `keychain sync join` again once a member approved (with --name to file the request under another name first)."
                ))
            return
        }
        print(
            """
            circle code:  \(status.circleCode ?? "")
            this device:  \(PrintableText.sanitized(status.deviceName)) (\(status.deviceID.uuidString.lowercased()))
            counter:      \(status.verifiedCounter) (generation \(status.generation))
            membership:   \(status.rosterFingerprint) (compare across devices after a membership change)
            synced items: \(status.syncedRecords)
            last sync:    \(status.lastSync.map { formatter.string(from: $0) } ?? "never")
            members:
            """)
        let names = Dictionary(
            (status.members + status.departed).map { ($0.deviceID, $0.name) }, uniquingKeysWith: { first, _ in first })
        func line(_ member: SyncStatus.Member) -> String {
            let voucher =
                member.approvedBy.map {
                    "approved by \(names[$0] ?? "\($0.uuidString.lowercased()), a removed device")"
                } ?? "founder"
            return
                "  \(member.name) (\(member.deviceID.uuidString.lowercased())), joined \(formatter.string(from: member.joined)), \(voucher)\(member.isThisDevice ? ", this device" : "")"
        }
        status.members.forEach { print(line($0)) }
        guard !status.departed.isEmpty else { return }
        print("left, still knowing the current key (`keychain sync remove` replaces it):")
        status.departed.forEach { print(line($0)) }
    }

    private func json(_ member: SyncStatus.Member, _ formatter: ISO8601DateFormatter) -> JSONValue {
        let approvedBy: JSONValue = member.approvedBy.map { JSONValue.string($0.uuidString.lowercased()) } ?? .null
        let fields: [String: JSONValue] = [
            "deviceID": .string(member.deviceID.uuidString.lowercased()), "name": .string(member.name),
            "joined": .string(formatter.string(from: member.joined)), "thisDevice": .bool(member.isThisDevice),
            "approvedBy": approvedBy
        ]
        return .object(fields)
    }
}

struct SyncLeave: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave", abstract: "Leave the circle; the items stay here and on the other devices.",
        discussion: """
            The departure is recorded, signed, where the other devices see it; they list this device as departed \
            until a member removes it (which replaces the circle key).

            Examples:
              keychain sync leave
              keychain sync leave --offline     # the server is gone: forget the circle here only
            """)
    @OptionGroup var keychain: KeychainSelection
    @Flag(
        name: .customLong("offline"),
        help:
            "Forget the circle here even if the departure cannot be recorded on the server (a member should then remove this device)."
    )
    var offline = false

    func run() throws {
        let keychain = try self.keychain.open(.existing)
        try reportingSyncErrors { try KeychainSynchronizer(keychain: keychain).leave(offline: offline) }
        print("Left the sync circle.")
    }
}

struct SyncRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a lost or stolen device: the circle moves to a new key it does not get.",
        discussion: """
            Devices the removed one approved (directly or through others) are removed with it, unless kept with --keep: \
            a stolen device could have approved devices of its own.

            Examples:
              keychain sync remove old-phone                    (a name or id from `keychain sync status`)
              keychain sync remove old-phone --keep tablet      (tablet, approved by old-phone, stays)
              keychain sync remove old-phone --rebuild          (the server's state fails verification: rebuild it from this device)
            """)
    @OptionGroup var keychain: KeychainSelection
    @Argument(help: "The device's name or id, as `keychain sync status` lists it.")
    var device: String
    @Option(
        name: .customLong("keep"),
        help: ArgumentHelp(
            "A device the removed one approved that stays in the circle (repeatable).", valueName: "device"))
    var kept: [String] = []
    @Flag(
        name: .customLong("rebuild"),
        help:
            "Make the new key's records from this device's items, when the circle's state on the server fails verification (a device about to be removed can damage it). Other devices push again what only they have."
    )
    var rebuild = false
    @Flag(
        name: .customLong("forget-unreadable-deletions"),
        help:
            "With --rebuild: go on when the server no longer holds some deletions this device agreed with; their values are then not remembered, so a restored copy of one could come back."
    )
    var forgetUnreadableDeletions = false

    func run() throws {
        let keychain = try self.keychain.open(.existing)
        let synchronizer = KeychainSynchronizer(keychain: keychain)
        let remaining = try reportingSyncErrors {
            try synchronizer.removeDevice(
                device, keeping: kept, rebuilding: rebuild,
                forgettingUnreadableDeletions: forgetUnreadableDeletions)
        }
        print(
            "Removed \(device) and the devices it approved\(kept.isEmpty ? "" : " (but the kept ones)"); the circle key was replaced and every record sealed again under it. The new key went to:"
        )
        for member in remaining {
            print(
                "  \(member.name) (\(member.deviceID.uuidString.lowercased()))\(member.isThisDevice ? ", this device" : "")"
            )
        }
        print("If one of these is not your device, remove it too.")
        if let fingerprint = try? synchronizer.status().rosterFingerprint {
            print(
                "Membership fingerprint \(fingerprint): `keychain sync status` on each of them should show it once they synced."
            )
        }
    }
}

/// `--server` and `--name`.
struct SyncServerOptions: ParsableArguments {
    @Option(
        name: .customLong("server"),
        help: ArgumentHelp(
            "The PostgreSQL server as a libpq connection string (default: $KEYCHAIN_SYNC_SERVER). Keep the password in ~/.pgpass or PGPASSWORD.",
            valueName: "connection"))
    var server: String?

    @Option(
        name: .customLong("name"),
        help: ArgumentHelp(
            "How the other devices see this one (default: the host name and four random characters, as laptop-k3q7, so that keychains on one host differ).",
            valueName: "name"))
    var name: String?

    /// The connection string.
    func connection() throws -> String {
        if let server {
            // The process list shows every argument to every local user, for as long as the
            // command runs (a join waits for its approval): libpq itself reads the string.
            switch KeychainSynchronizer.commandLineExposure(of: server) {
            case .secret(let keyword)?:
                throw usageFailure(
                    "--server holds a password (libpq reads one from its \(keyword) keyword, or from the password part of a postgresql:// URI), and every local user can read a command line (ps, /proc) while it runs; nothing was done. Remove it from --server and keep it in ~/.pgpass (or the file PGPASSFILE names) or in PGPASSWORD, or pass the whole connection string in KEYCHAIN_SYNC_SERVER instead of --server."
                )
            case .unreadable(let reason)?:
                throw usageFailure(
                    "--server is not a connection string the keychain can use: \(reason); nothing was done. Write it as libpq's key=value pairs or a postgresql:// URI, without a password (keep that in ~/.pgpass or PGPASSWORD)."
                )
            case nil:
                return server
            }
        }
        if let configured = ProcessInfo.processInfo.environment["KEYCHAIN_SYNC_SERVER"], !configured.isEmpty {
            return configured
        }
        throw usageFailure("say which server with --server \"host=… dbname=…\" (or set KEYCHAIN_SYNC_SERVER).")
    }

    /// This device's name: `--name`, or ``DefaultDeviceName``.
    var deviceName: String { name ?? DefaultDeviceName.make() }
}

/// The exit statuses of sync failures.
extension ExitStatus {
    /// The server cannot be reached (sysexits' EX_UNAVAILABLE).
    static let serverUnavailable: Int32 = 69
    /// `sync join`: no member approved the request yet; try again later (sysexits' EX_TEMPFAIL).
    static let notApprovedYet: Int32 = 75
}

/// Runs a sync operation; a ``SyncError`` is printed (never with secrets) and becomes the
/// documented exit status.
func reportingSyncErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as SyncError {
        printFailure(error)
        switch error.code {
        case .tampered: throw ExitCode(ExitStatus.integrity)
        case .invalidCode: throw ExitCode(ExitStatus.dataError)
        case .serverUnreachable, .serverRejected: throw ExitCode(ExitStatus.serverUnavailable)
        case .keychain: throw ExitCode(error.keychainError.map { ExitStatus.of($0.code) } ?? 1)
        default: throw ExitCode(1)  // notAMember, removed, invalidState, and codes of later versions
        }
    }
}
