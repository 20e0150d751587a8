import Foundation

/// A built-in ``Authenticator`` that stands in for the device passcode: it asks the app for a
/// PIN (or passphrase), checks it against a verifier stored with scrypt, with a limit of free
/// attempts and growing waiting times after that (``PINAttemptPolicy``), and on success
/// releases the secret scrypt derives from the PIN, which unwraps the keychain's presence key.
///
/// ```swift
/// let keychain = try Keychain()
/// let pin = try PINAuthenticator(keychain: keychain.location) { request in
///     readPIN(prompt: request.reason)            // nil when the user cancels
/// }
/// if !pin.isPINSet { try pin.setPIN("482916", in: keychain) }   // enrols it
/// keychain.authenticator = pin
/// ```
///
/// It offers ``AuthenticationMethod/passcode`` only, and has no biometry, so items protected by
/// `biometryAny` or `biometryCurrentSet` stay unreadable with it; `userPresence` and
/// `devicePasscode` items work. The PIN file (0600) lives next to the device key, outside the data
/// directory, and records the identifier of the PIN's enrolment: deleting or replacing it does
/// not give anyone the protected items (the keychain reports `.integrityViolation`). Its failure
/// count protects against guessing through this library; someone who can write the file as the
/// same user can reset the count, and someone with a copy of the files can guess offline at the
/// cost of one scrypt per guess (KeychainServices' article "Access Control"). Its directory must be the
/// user's own, not a link and not writable by others (`.keychainUnavailable` otherwise), and
/// each operation waits at most 10 s for another process using the PIN file (`.busy` after that).
public final class PINAuthenticator: Authenticator {
    /// Asks the user for the PIN; returns `nil` when the user cancels.
    public typealias Prompt = @Sendable (AuthenticationRequest) -> String?

    /// The PIN file.
    public let fileURL: URL
    /// The KDF cost for new PINs.
    public let parameters: ScryptParameters
    /// The attempt limits.
    public let attemptPolicy: PINAttemptPolicy
    private let prompt: Prompt
    private let now: @Sendable () -> Date

    /// Creates an authenticator whose PIN file is `fileURL`.
    /// - Parameters:
    ///   - fileURL: the PIN file.
    ///   - parameters: scrypt cost for new PINs (default: the passphrase floor, N = 2^17, r = 8).
    ///   - attemptPolicy: free attempts and waiting times.
    ///   - clock: the time source (tests move it).
    ///   - prompt: asks the user for the PIN.
    public init(
        fileURL: URL, parameters: ScryptParameters = .floor, attemptPolicy: PINAttemptPolicy = PINAttemptPolicy(),
        clock: @escaping @Sendable () -> Date = { Date() }, prompt: @escaping Prompt
    ) throws(KeychainError) {
        self.fileURL = fileURL
        self.parameters = parameters
        self.attemptPolicy = attemptPolicy
        self.prompt = prompt
        now = clock
        try PlatformIO.makePrivateDirectory(fileURL.deletingLastPathComponent(), role: "authenticator directory")
        try FilePermissions.requirePrivate(fileURL.path, role: "PIN file")
    }

    /// Creates an authenticator whose PIN file sits next to the keychain's device key
    /// (`state/authenticator/pin`).
    public convenience init(
        keychain location: KeychainLocation, parameters: ScryptParameters = .floor,
        attemptPolicy: PINAttemptPolicy = PINAttemptPolicy(),
        clock: @escaping @Sendable () -> Date = { Date() }, prompt: @escaping Prompt
    ) throws(KeychainError) {
        try self.init(
            fileURL: Self.fileURL(for: location), parameters: parameters, attemptPolicy: attemptPolicy, clock: clock,
            prompt: prompt)
    }

    /// Where ``init(keychain:parameters:attemptPolicy:clock:prompt:)`` keeps the PIN of a keychain:
    /// `state/authenticator/pin`, beside the device key.
    public static func fileURL(for location: KeychainLocation) -> URL {
        location.deviceKeyURL.deletingLastPathComponent().appendingPathComponent("authenticator/pin")
    }

    // MARK: - Authenticator

    /// ``AuthenticationMethod/passcode`` once a PIN is set; nothing before.
    public var availableMethods: Set<AuthenticationMethod> { isPINSet ? [.passcode] : [] }

    /// Always `nil`: a PIN is not biometry.
    public var enrollmentState: Data? { nil }

    /// The identifier of the PIN's enrolment (from the PIN file); `nil` without a PIN file or
    /// with one written before PINs were enrolled.
    public func enrollmentIdentifier(for method: AuthenticationMethod) -> Data? {
        guard method == .passcode, isPINSet else { return nil }
        return try? locked { () throws(KeychainError) in try self.load().identifier }
    }

    /// Prompts for the PIN and checks it; the right PIN releases its secret. A locked-out PIN
    /// fails without prompting; a wrong one counts as a failure; an empty answer cancels.
    public func authenticate(_ request: AuthenticationRequest) -> AuthenticationOutcome {
        guard request.allowedMethods.contains(.passcode), isPINSet, (try? remainingLockout()) == 0 else {
            return .failed
        }
        guard let pin = prompt(request), !pin.isEmpty else { return .canceled }
        guard let secret = try? checkedSecret(pin) else { return .failed }
        return .authenticated(.passcode, secret)
    }

    // MARK: - Managing the PIN

    /// Whether a PIN has been set.
    public var isPINSet: Bool { PlatformIO.fileExists(fileURL.path) }

    /// Sets the PIN and enrols it in `keychain`, so that it opens the items protected there.
    ///
    /// Changing an existing PIN needs the current one (checked like any attempt). When the PIN is
    /// the keychain's only enrolled method, the change also replaces the presence key and moves
    /// every protected item to the new one (their classes must be unlocked), so old copies of the
    /// files and the old PIN open nothing protected afterwards
    /// (``Keychain/replaceEnrollment(of:current:with:)``). The whole change holds the PIN
    /// file's lock, and the old PIN's enrolment is removed only once the new PIN file is in
    /// place: a process killed in between leaves the old PIN working.
    ///
    /// - Throws: `.authFailed` when `current` is wrong, missing or locked out;
    ///   `.invalidParameter` for an empty PIN; `.integrityViolation` when the keychain has an
    ///   enrolled PIN but the PIN file is gone or is not the enrolled one (a new PIN cannot open
    ///   what the old one protects: restore the file); `.interactionNotAllowed` when protected
    ///   items must move and a class is locked; what
    ///   ``Keychain/enroll(_:for:authorizedBy:authentication:)`` throws.
    public func setPIN(_ pin: String, current: String? = nil, in keychain: Keychain) throws(KeychainError) {
        guard !pin.isEmpty else { throw KeychainError.emptyPIN() }
        try locked { () throws(KeychainError) in
            let enrolled = keychain.enrollmentIdentifiers(for: .passcode)
            var existing: AuthenticationSecret?
            if self.isPINSet {
                guard let current, let secret = try self.checkedSecretHoldingLock(current) else {
                    throw KeychainError.currentPINNeeded()
                }
                existing = secret
            }
            if !enrolled.isEmpty && !(existing.map { enrolled.contains($0.identifier) } ?? false) {
                throw KeychainError.enrolledPINFileMissingOrReplaced(
                    pinFile: self.fileURL.path, isMissing: existing == nil)
            }
            let (record, secret) = try PINVerifierRecord.new(pin: pin, parameters: self.parameters)
            if let existing, enrolled.contains(existing.identifier) {
                try keychain.replaceEnrollment(of: .passcode, current: existing, with: secret)
                try self.store(record)
                // The old PIN's enrolment goes; if this fails, both PINs work until the next change.
                try? keychain.removeEnrollment(existing.identifier, for: .passcode)
            } else {
                // The file first: if enrolling fails, the file goes and nothing was enrolled; if
                // the process dies in between, the file is there and enrolling again works.
                let previous = self.isPINSet ? try self.load() : nil
                try self.store(record)
                let enrolled = Result { () throws(KeychainError) in try keychain.enroll(secret, for: .passcode) }
                if case .failure = enrolled {
                    if let previous { try? self.store(previous) } else { PlatformIO.removeFile(self.fileURL.path) }
                }
                try enrolled.get()
            }
        }
    }

    /// Checks a PIN, counting failures.
    /// - Returns: whether it is the PIN.
    /// - Throws: `.authFailed` while locked out after too many failures (the message says how
    ///   long), or when no PIN is set.
    public func verify(_ pin: String) throws(KeychainError) -> Bool {
        try checkedSecret(pin) != nil
    }

    /// Checks a PIN, counting failures; the secret it releases when it is the PIN.
    private func checkedSecret(_ pin: String) throws(KeychainError) -> AuthenticationSecret? {
        try locked { () throws(KeychainError) in try self.checkedSecretHoldingLock(pin) }
    }

    /// ``checkedSecret(_:)`` for a caller that holds the PIN file's lock.
    private func checkedSecretHoldingLock(_ pin: String) throws(KeychainError) -> AuthenticationSecret? {
        var record = try loadSettlingClock()
        let wait = lockout(of: record)
        if wait > 0 {
            throw KeychainError.pinAttemptsThrottled(seconds: Int(wait.rounded(.up)))
        }
        // The attempt is counted on disk before the PIN is checked, so an attempt whose
        // failure could not be recorded (a full disk, a killed process) is never free.
        record.failures += 1
        record.lastFailure = now()
        try store(record)
        guard let secret = try record.secret(ifMatching: pin) else { return nil }
        record.failures = 0
        record.lastFailure = nil
        try store(record)
        return secret
    }

    /// Seconds until the next attempt is allowed (0 when one is allowed now).
    public func remainingLockout() throws(KeychainError) -> TimeInterval {
        try locked { () throws(KeychainError) in self.lockout(of: try self.loadSettlingClock()) }
    }

    /// Consecutive wrong PINs since the last correct one.
    public func failedAttempts() throws(KeychainError) -> Int {
        try locked { () throws(KeychainError) in try self.load().failures }
    }

    // MARK: - File

    private func lockout(of record: PINVerifierRecord) -> TimeInterval {
        let delay = attemptPolicy.delay(afterFailures: record.failures)
        guard delay > 0, let last = record.lastFailure else { return 0 }
        // A clock set back does not shorten the wait: time before the last failure counts as none.
        let elapsed = max(0, now().timeIntervalSince(last))
        return max(0, delay - elapsed)
    }

    /// Runs `body` holding the PIN directory's lock; another process holding it for more than
    /// 10 s gives `.busy` rather than a hang.
    private func locked<T>(_ body: () throws(KeychainError) -> T) throws(KeychainError) -> T {
        try PlatformIO.requirePrivateDirectory(fileURL.deletingLastPathComponent(), role: "authenticator directory")
        return try PlatformIO.withExclusiveLock(
            onDirectory: fileURL.deletingLastPathComponent(), waitingAtMost: .seconds(10), body)
    }

    /// The record, with a last failure later than now (a clock set back, or a file edited to
    /// lock the PIN for ever) taken as now and stored so: the wait then runs from now, never
    /// shorter, never endless.
    private func loadSettlingClock() throws(KeychainError) -> PINVerifierRecord {
        var record = try load()
        let time = now()
        if let last = record.lastFailure, !(last <= time) {
            record.lastFailure = time
            try store(record)
        }
        return record
    }

    private func load() throws(KeychainError) -> PINVerifierRecord {
        guard isPINSet else { throw KeychainError.noPINSet() }
        try FilePermissions.requirePrivate(fileURL.path, role: "PIN file")
        return try PINVerifierRecord(
            encoded: PlatformIO.readFile(fileURL.path, maximumSize: PINVerifierRecord.byteCount), path: fileURL.path)
    }

    private func store(_ record: PINVerifierRecord) throws(KeychainError) {
        let writer = try PrivateFileWriter(path: fileURL.path)
        try writer.write(record.encoded)
        try writer.commit(replacingExisting: true)
    }
}
