/// Every rule, in the order they are listed and numbered in reports.
package enum RuleCatalog {
    /// All rules, in report order.
    package static let all: [RuleDescriptor] = [
        RuleDescriptor(
            id: .insecureSecretStorage, name: "InsecureSecretStorage", severity: .error,
            summary: "A credential is written to UserDefaults, iCloud key-value storage or an unprotected file.",
            explanation: """
                UserDefaults, @AppStorage, @SceneStorage and NSUbiquitousKeyValueStore write plain property \
                lists that backups, other processes of the same user and anyone with the device's file system \
                can read; iCloud key-value storage also copies them off the device. Files written with \
                Data.write(to:) or FileManager.createFile without a data-protection option are not encrypted \
                while the device is unlocked or at all. Tokens, passwords, session cookies, PINs and private \
                keys belong in the Keychain: store them with SecItemAdd/SecItemUpdate (or SecureStorage's \
                facade), and keep preferences for things that are not secret. The rule fires when the key, \
                the property or the value is named like a credential, and for every such write in a file \
                named like *Auth*, *Secret* or *Credential*.
                """,
            example: #"UserDefaults.standard.set(token, forKey: "authToken")"#,
            fix: #"try secureStorage.set(token, for: "authToken")   // the Keychain, not a property list"#
        ),
        RuleDescriptor(
            id: .deleteThenAdd, name: "DeleteThenAdd", severity: .warning,
            summary: "SecItemDelete followed by SecItemAdd of the same item instead of SecItemUpdate.",
            explanation: """
                Replacing an item by deleting it and adding it again loses it whenever the add fails: while \
                the device is locked the delete succeeds but the add of an item that is only accessible when \
                unlocked returns errSecInteractionNotAllowed (-25308), and a full disk or a crash between the \
                two calls has the same effect. The old value is gone and nothing replaces it. Add first; on \
                errSecDuplicateItem (-25299) update the existing item with SecItemUpdate, passing only the \
                attributes to change. Both paths keep the old value when they fail.
                """,
            example: "SecItemDelete(query as CFDictionary); SecItemAdd(query as CFDictionary, nil)",
            fix:
                "var status = SecItemAdd(query as CFDictionary, nil); if status == errSecDuplicateItem { status = SecItemUpdate(match as CFDictionary, [kSecValueData: data] as CFDictionary) }"
        ),
        RuleDescriptor(
            id: .accessibleAlways, name: "AccessibleAlways", severity: .error,
            summary: "kSecAttrAccessibleAlways or kSecAttrAccessibleAlwaysThisDeviceOnly.",
            explanation: """
                Items that are accessible always can be read while the device is locked, so a stolen locked \
                device gives them up, and the constants have been deprecated since iOS 12 and macOS 10.14. \
                Choose kSecAttrAccessibleAfterFirstUnlock (or its ThisDeviceOnly form) for items that \
                background work must read after a restart, and kSecAttrAccessibleWhenUnlocked otherwise.
                """,
            example: "kSecAttrAccessible as String: kSecAttrAccessibleAlways",
            fix: "kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"
        ),
        RuleDescriptor(
            id: .implicitAccessibility, name: "ImplicitAccessibility", severity: .note,
            summary: "A password item is added without kSecAttrAccessible or kSecAttrAccessControl.",
            explanation: """
                Without kSecAttrAccessible an item is kSecAttrAccessibleWhenUnlocked: background refreshes, \
                push handlers and extensions that run while the device is locked get errSecInteractionNotAllowed \
                (-25308) when they read it, and apps that then treat the token as missing log the user out. \
                Say when the item must be readable: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly for \
                tokens used in the background, kSecAttrAccessibleWhenUnlockedThisDeviceOnly for everything \
                else, or an access control from SecAccessControlCreateWithFlags.
                """,
            example:
                "SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: account, kSecValueData: data] as CFDictionary, nil)",
            fix: "add kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly to the query"
        ),
        RuleDescriptor(
            id: .uncheckedStatus, name: "UncheckedStatus", severity: .warning,
            summary: "A SecItem status is ignored, or only compared with errSecItemNotFound.",
            explanation: """
                Every SecItem function reports failure only through its OSStatus. A delete whose status is \
                ignored can leave a token behind after sign-out; an add whose status is ignored loses the \
                value silently. Comparing only with errSecItemNotFound (-25300) treats every other failure as \
                success or as a missing item: a locked device returns errSecInteractionNotAllowed (-25308), \
                and code that reads that as "no token" signs the user out or overwrites the real item. Compare \
                with errSecSuccess, handle errSecItemNotFound where absence is expected, and throw or report \
                everything else.
                """,
            example: "SecItemDelete(query as CFDictionary)",
            fix:
                "let status = SecItemDelete(query as CFDictionary); guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status) }"
        ),
        RuleDescriptor(
            id: .returnDataMatchAll, name: "ReturnDataMatchAll", severity: .warning,
            summary: "kSecReturnData together with kSecMatchLimitAll.",
            explanation: """
                Asking SecItemCopyMatching for the data of every matching item is refused with errSecParam \
                (-50) for some item classes and platforms, and where it works it decrypts every secret at \
                once, prompting for each item that has an access control. Ask for kSecReturnAttributes and \
                kSecReturnPersistentRef with kSecMatchLimitAll, then read the data of the one item you need \
                with kSecMatchLimitOne.
                """,
            example: "[kSecReturnData: true, kSecMatchLimit: kSecMatchLimitAll]",
            fix: "[kSecReturnAttributes: true, kSecReturnPersistentRef: true, kSecMatchLimit: kSecMatchLimitAll]"
        ),
        RuleDescriptor(
            id: .hardcodedSecret, name: "HardcodedSecret", severity: .error,
            summary: "A credential is written in the source code.",
            explanation: """
                A password, key or token in a string literal ships in every copy of the binary, where \
                `strings` finds it, and stays in the repository's history after it is removed. The rule \
                recognises the formats of well-known secrets anywhere (AWS access keys, GitHub, GitLab, Slack \
                and Stripe live secret keys, OpenAI and Anthropic keys, JSON Web Tokens, and PEM private keys \
                whose base64 body follows the header in the same literal), and, where a credential's name is \
                given to a literal (a binding, a parameter default, an argument label, a dictionary key, an \
                assignment target, the forKey: or forHTTPHeaderField: of the same call), long random \
                literals and literals of six characters or more that read as a chosen password \
                ("b@nkP@ssword123"). It stays silent on what such names are also given: UI text and prose \
                (anything with a space), placeholders ("YOUR_API_KEY", "••••"), key names ("refresh_token", \
                the forKey: argument itself, a value equal to its name, names like passwordKey), identifiers, \
                file names, paths, URLs, localization keys and format strings, enum raw values, and SwiftUI \
                previews; so a real password that looks like a key name ("user_token") or contains a space is \
                missed. Keys that are public by design are not reported: Google API keys (AIza…, which Google \
                documents for Firebase and the Maps SDK as project identifiers restricted by bundle \
                identifier, not secrets; a Gemini or server key of the same format is missed), PostHog project \
                keys (phc_…, while personal phx_ keys stay secret), Stripe publishable keys (pk_…), RevenueCat \
                public SDK keys (appl_…), and any key passed to an analytics or crash-reporting SDK (Mixpanel \
                and Amplitude project tokens, Segment write keys, Sentry DSNs, whose public key only \
                identifies the project). A bare PEM marker ("-----BEGIN PRIVATE KEY-----", as a parser uses \
                it) is not a key. Revoke or change the credential, then load it at run time from the \
                Keychain, from the user, from the environment or from a server.
                """,
            example: #"let password = "b@nkP@ssword123""#,
            fix: #"let password = try secureStorage.string(for: "password")"#
        ),
        RuleDescriptor(
            id: .loggedSecret, name: "LoggedSecret", severity: .warning,
            summary: "A credential, by its name or because it was read from the keychain, is printed or logged.",
            explanation: """
                print, debugPrint and dump write to standard output, which ends up in device logs, crash \
                reports and CI output; NSLog writes to the unified log unredacted, where sysdiagnoses collect \
                it; fatalError's message lands in crash reports; third-party loggers write what they are \
                given. The rule reports a value read from the keychain, or a value that is a credential by \
                its name or origin (password, authToken, user.password, credentials, params["password"], the \
                text of pinTextField), reaching any of them. Apple's unified logging redacts by default: \
                os_log keeps dynamic strings and objects (%@, %s) private unless the specifier says \
                %{public}, and Logger (and os_log with an interpolated message) redacts interpolated strings \
                and objects unless they say privacy: .public (.auto, the default, shows only numbers and \
                Booleans; .private and .sensitive always redact), so only those public values are reported \
                there. Not reported: a credential's count or emptiness, comparisons (token == nil), other \
                properties (token.expiresAt), what a function computes from it, names of settings (hasToken) \
                and of views (passwordField), and session, auth or authorization alone. A logger method \
                counts as Apple's Logger in a file that imports os or OSLog; a credential under an \
                unremarkable name (a user object's description) is missed. Log that it was found, or its \
                length, or leave the interpolation private.
                """,
            example: #"print("signing in with \(password)")"#,
            fix: #"logger.debug("signing in (\(password.count) characters)")"#
        ),
        RuleDescriptor(
            id: .secItemOnMainActor, name: "SecItemOnMainActor", severity: .warning,
            summary: "A SecItem call runs on the main actor.",
            explanation: """
                SecItem functions block: they talk to securityd (on Apple platforms) or to a database, and \
                an item with an access control shows a passcode or biometric prompt and waits for it. On the \
                main actor that freezes the user interface, and the watchdog can terminate the app. Call them \
                from a background task (Task.detached, a nonisolated async function or an actor of your own) \
                and hop back to the main actor with the result.
                """,
            example: "@MainActor func load() { SecItemCopyMatching(query as CFDictionary, &result) }",
            fix: "nonisolated func load() async -> Data? { … SecItemCopyMatching … }"
        ),
        RuleDescriptor(
            id: .unencryptedDatabase, name: "UnencryptedDatabase", severity: .error,
            summary: "A credential is stored in a database that is not encrypted.",
            explanation: """
                Core Data and SwiftData stores, SQLite files (sqlite3, GRDB, FMDB), Realm, Couchbase Lite and \
                YapDatabase databases are ordinary files in the app's container: they are copied into backups, \
                readable by anyone with the device's file system or a backup, and protected at most by the \
                default data-protection class, which leaves them readable whenever the device has been \
                unlocked once. A password, token or key stored in a column, attribute or document there is \
                stored in the clear. Keep the credential in the Keychain and store only a reference to it \
                (the account name) in the database; if the database itself must hold secrets, encrypt it \
                (SQLCipher with PRAGMA key, Realm.Configuration(encryptionKey:) with a key kept in the \
                Keychain, Couchbase Lite's encryptionKey). The rule fires when a credential-named value, \
                attribute, column or property is written, and stays silent in a module that configures an \
                encryption key.
                """,
            example: #"user.setValue(password, forKey: "password"); try context.save()"#,
            fix: #"try secureStorage.set(password, for: user.email)   // the database keeps only the account name"#
        ),
        RuleDescriptor(
            id: .exposedSecret, name: "ExposedSecret", severity: .warning,
            summary: "A credential is put on the pasteboard, in a cookie without Secure, or in the URL cache.",
            explanation: """
                UIPasteboard.general is readable by every app the user switches to (and by other devices \
                through Universal Clipboard); a cookie made without the Secure attribute is sent over plain \
                HTTP, and cookies kept in HTTPCookieStorage are written to the app's Library/Cookies file; \
                URLCache.shared writes cached responses, tokens in them included, to an unencrypted database \
                in Library/Caches. Do not copy credentials to the general pasteboard (use a named pasteboard, \
                or setItems with .localOnly and an .expirationDate); make credential cookies with \
                .secure: "TRUE" (and HTTPOnly); and do not cache responses that carry credentials (a \
                URLSessionConfiguration with urlCache = nil, or Cache-Control: no-store).
                """,
            example: "UIPasteboard.general.string = password",
            fix:
                #"UIPasteboard.general.setItems([[UTType.plainText.identifier: password]], "#
                + #"options: [.localOnly: true, .expirationDate: Date().addingTimeInterval(60)])"#
        ),
        RuleDescriptor(
            id: .unknownSuppression, name: "UnknownSuppression", severity: .warning,
            summary: "A keychain-lint suppression comment names a rule that does not exist.",
            explanation: """
                A misspelt rule id in a keychain-lint:disable comment suppresses nothing, so the finding it \
                was meant for is still reported, or a later one is silently not suppressed where the author \
                believed it was. Use one of the ids listed by keychain-lint --list-rules, or `all`.
                """,
            example: "// keychain-lint:disable-next-line delete-than-add",
            fix: "// keychain-lint:disable-next-line delete-then-add -- the reason"
        )
    ]

    /// The descriptor of a rule.
    package static func descriptor(of rule: RuleID) -> RuleDescriptor {
        all.first { $0.id == rule }!
    }

    /// The position of a rule in ``all`` (SARIF `ruleIndex`).
    package static func index(of rule: RuleID) -> Int {
        all.firstIndex { $0.id == rule }!
    }
}
