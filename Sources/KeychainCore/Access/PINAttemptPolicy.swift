import Foundation

/// How many wrong PINs a ``PINAuthenticator`` accepts before it makes the user wait, and how
/// long: after ``freeAttempts`` consecutive failures each further failure locks the PIN for
/// ``baseDelay`` · 2^(failures − freeAttempts − 1) seconds, capped at ``maximumDelay``. A correct
/// PIN resets the count. The defaults (5 free attempts, then 30 s, 1 min, 2 min, … up to 1 hour)
/// allow about 30 guesses in the first day.
public struct PINAttemptPolicy: Sendable, Hashable {
    /// Consecutive failures allowed without waiting.
    public var freeAttempts: Int
    /// The first waiting time, in seconds.
    public var baseDelay: TimeInterval
    /// The longest waiting time, in seconds.
    public var maximumDelay: TimeInterval

    /// Creates a policy.
    public init(freeAttempts: Int = 5, baseDelay: TimeInterval = 30, maximumDelay: TimeInterval = 3600) {
        self.freeAttempts = max(1, freeAttempts)
        self.baseDelay = max(0, baseDelay)
        self.maximumDelay = max(self.baseDelay, maximumDelay)
    }

    /// The waiting time after `failures` consecutive failures (0 while attempts are free).
    public func delay(afterFailures failures: Int) -> TimeInterval {
        guard failures > freeAttempts else { return 0 }
        let doublings = min(failures - freeAttempts - 1, 40)
        return min(baseDelay * pow(2, Double(doublings)), maximumDelay)
    }
}
