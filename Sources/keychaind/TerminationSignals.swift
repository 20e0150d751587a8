import SecureStorageFoundation

/// SIGTERM, SIGINT and SIGHUP, blocked in every thread (the mask is inherited by the threads
/// started afterwards) and taken by ``wait()`` on the main thread: no signal handler runs amid
/// the agent's work, and shutdown happens in one place. SIGPIPE is ignored: a client that
/// disconnects costs a failed write, not the agent.
struct TerminationSignals {
    private var set = sigset_t()

    /// Blocks the signals in the calling thread; call it before any other thread starts.
    static func block() -> TerminationSignals {
        var signals = TerminationSignals()
        sigemptyset(&signals.set)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals.set, signal) }
        pthread_sigmask(SIG_BLOCK, &signals.set, nil)
        signal(SIGPIPE, SIG_IGN)
        return signals
    }

    /// Waits for one of the signals; returns it.
    func wait() -> Int32 {
        var set = self.set
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }
}
