/// When background sync syncs, compacts, waits and stops: the decisions of ``SyncService``
/// without its I/O, so that every transition is tested without a server, a clock or a sleep.
///
/// Time is a `Duration` since the service started, given with every input. The service feeds
/// it what happened (``Input``) and does what it answers (``Action``):
///
/// - the first round starts at once and checks every record; one every `verificationInterval`
///   after it does too;
/// - a change (a local write, another device's notification) or the poll interval makes a
///   round due; rounds started by changes start at least ``changeGap`` apart, so a storm of
///   notifications or writes costs a round a second at most (the first change after a quiet
///   second starts its round at once; one during the gap makes a round due at its end);
/// - a lost listener (the `LISTEN` connection) is reconnected after 1, 2, 4, … seconds, up to
///   five minutes (back to one second once it stayed up ``listenerSteadyPeriod``), and each loss
///   makes one catch-up round due when the listener may reconnect: a server that keeps dropping
///   the listener cannot make the service reconnect or sync in a tight loop;
/// - a server that cannot be reached, or refuses, is retried after 1, 2, 4, … seconds, up to
///   five minutes, without waiting for the next poll;
/// - a finding that retrying soon does not heal (tampering, removal, no circle) waits five
///   minutes before the next due round;
/// - once a day, after a round with nothing waiting for a locked class, deletions are compacted.
struct BackgroundSyncStateMachine: Sendable, Equatable {
    /// What the service is doing.
    enum State: Sendable, Equatable {
        /// Waiting for a change, the next poll or the next verification.
        case idle
        /// A round runs.
        case syncing(verifyingEverything: Bool)
        /// Deletions are being compacted, after a round.
        case compacting
        /// A round failed; none starts before `until`.
        case backingOff(until: Duration)
        /// Stopped for good.
        case stopped
    }

    /// What happened.
    enum Input: Sendable, Equatable {
        /// Time passed (a deadline the service waited for, or any wake-up).
        case tick
        /// The keychain's files changed or another device announced a push.
        case changeNoticed
        /// The listener's connection broke (``listenerLost(at:)``): notifications may have been missed.
        case listenerLost
        /// The round finished; `deferredWhileLocked` changes wait for a locked class.
        case roundSucceeded(deferredWhileLocked: Int)
        /// The round failed with `code`.
        case roundFailed(SyncError.Code)
        /// Compaction finished, whether it removed anything or failed (the service reports a failure).
        case compactionFinished
        /// The service is asked to stop.
        case stopRequested
    }

    /// What the service does next.
    enum Action: Sendable, Equatable {
        /// Run a round now.
        case sync(verifyingEverything: Bool)
        /// Compact the deletions every member merged, now.
        case compact
        /// Wait for a change or until `deadline`, whichever comes first, then send ``Input/tick``
        /// or ``Input/changeNoticed``.
        case wait(until: Duration)
        /// A round or a compaction is in progress: send its outcome when it ends.
        case awaitOutcome
        /// Nothing more: the service ends.
        case finish
    }

    /// The longest wait between retries of an unreachable server.
    static let longestBackoff: Duration = .seconds(300)
    /// The wait after a finding that retrying soon does not heal.
    static let findingPause: Duration = .seconds(300)
    /// How often deletions are compacted.
    static let compactionInterval: Duration = .seconds(24 * 3600)
    /// The least time from one round's start to the next round started by a change.
    static let changeGap: Duration = .seconds(1)
    /// How long the listener must stay connected for its backoff to start again from one second.
    static let listenerSteadyPeriod: Duration = .seconds(60)

    /// What the service is doing.
    private(set) var state: State = .idle
    /// How long between rounds when nothing announced a change.
    let pollInterval: Duration
    /// How long between rounds that check every record.
    let verificationInterval: Duration

    private var due = true  // the first round happens at once
    private var retryAt: Duration = .zero
    private var backoff: Duration = .seconds(1)
    private var nextPoll: Duration = .zero
    private var nextVerification: Duration = .zero  // the first round checks every record
    private var nextCompaction: Duration = .zero
    private var changePending = false  // a change waits for the end of the gap
    private var changeGapEnd: Duration = .zero
    private var listenerRetryAt: Duration = .zero
    private var listenerBackoff: Duration = .seconds(1)
    private var listenerConnectedAt: Duration?
    private var catchUpAt: Duration?  // the round after a lost listener

    /// A machine whose first round is due at once.
    init(pollInterval: Duration, verificationInterval: Duration) {
        self.pollInterval = pollInterval
        self.verificationInterval = verificationInterval
    }

    /// Whether the service may talk to the server now (to listen for notifications): not while
    /// it backs off from a server that could not be reached.
    func mayContactServer(at now: Duration) -> Bool {
        now >= retryAt
    }

    /// Whether the service may connect the listener now: when it may contact the server and
    /// the listener's own backoff after a loss has ended.
    func mayListen(at now: Duration) -> Bool {
        mayContactServer(at: now) && now >= listenerRetryAt
    }

    /// The listener connected at `now` (its backoff restarts once it stayed up long enough).
    mutating func listenerConnected(at now: Duration) {
        listenerConnectedAt = now
    }

    /// The listener was lost, or could not connect, at `now`: it may reconnect after its backoff,
    /// and a catch-up round is due then (notifications may have been missed meanwhile). Use this
    /// while a round runs; ``Input/listenerLost`` otherwise.
    mutating func listenerLost(at now: Duration) {
        if let connectedAt = listenerConnectedAt, now - connectedAt >= Self.listenerSteadyPeriod {
            listenerBackoff = .seconds(1)
        }
        listenerConnectedAt = nil
        listenerRetryAt = now + listenerBackoff
        listenerBackoff = min(listenerBackoff * 2, Self.longestBackoff)
        catchUpAt = listenerRetryAt
    }

    /// Takes `input`, which happened at `now`, and answers what to do next.
    mutating func handle(_ input: Input, at now: Duration) -> Action {
        switch input {
        case .stopRequested:
            state = .stopped
        case .changeNoticed:
            changePending = true
        case .listenerLost:
            listenerLost(at: now)
        case .tick:
            break
        case .roundSucceeded(let deferredWhileLocked):
            guard case .syncing(let verified) = state else { break }
            if verified { nextVerification = now + verificationInterval }
            roundEnded(at: now)
            backoff = .seconds(1)
            retryAt = .zero
            if now >= nextCompaction, deferredWhileLocked == 0 {
                nextCompaction = now + Self.compactionInterval
                state = .compacting
                return .compact
            }
        case .roundFailed(let code):
            guard case .syncing = state else { break }
            roundEnded(at: now)
            if code == .serverUnreachable || code == .serverRejected {
                retryAt = now + backoff
                backoff = min(backoff * 2, Self.longestBackoff)
                due = true  // retried when the backoff ends, not at the next poll
                state = .backingOff(until: retryAt)
            } else if code == .tampered || code == .removed || code == .notAMember {
                retryAt = now + Self.findingPause
                state = .backingOff(until: retryAt)
            }
        case .compactionFinished:
            if state == .compacting { state = .idle }
        }
        return nextAction(at: now)
    }

    /// After a round: the next poll counts from its end. A change noticed while it ran keeps
    /// the next round due.
    private mutating func roundEnded(at now: Duration) {
        state = .idle
        nextPoll = now + pollInterval
    }

    /// What to do at `now` in the current state.
    private mutating func nextAction(at now: Duration) -> Action {
        switch state {
        case .stopped:
            return .finish
        case .syncing, .compacting:
            return .awaitOutcome
        case .backingOff(let until) where now < until:
            return .wait(until: until)
        case .backingOff, .idle:
            state = .idle
            if now >= nextPoll { due = true }
            if changePending, now >= changeGapEnd { due = true }
            if let catchUp = catchUpAt, now >= catchUp {
                due = true
                catchUpAt = nil
            }
            guard due else {
                var until = nextPoll
                if changePending { until = min(until, changeGapEnd) }
                if let catchUp = catchUpAt { until = min(until, catchUp) }
                return .wait(until: until)
            }
            let verifying = now >= nextVerification
            due = false  // a change from here on makes the next round due
            changePending = false
            changeGapEnd = now + Self.changeGap
            state = .syncing(verifyingEverything: verifying)
            return .sync(verifyingEverything: verifying)
        }
    }
}
