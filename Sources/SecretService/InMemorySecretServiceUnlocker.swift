import KeychainCore
import SecureStorageFoundation

/// A ``SecretServiceUnlocker`` over one ``Keychain`` in this process, for tests and for hosting
/// the provider without an agent: it unlocks with a passphrase it was given, and only when told
/// that a prompter "is present".
///
/// ``PrompterBehaviour`` says what an unlock request does: ``PrompterBehaviour/absent`` answers
/// `false` at once (the headless case), ``PrompterBehaviour/grants`` unlocks with the passphrase,
/// ``PrompterBehaviour/waitsForUnlockElsewhere`` answers only when the keychain is unlocked by
/// someone else (``unlockElsewhere()``), as a terminal agent that is waiting would.
package final class InMemorySecretServiceUnlocker: SecretServiceUnlocker {
    /// What a prompt request does.
    package enum PrompterBehaviour: Sendable {
        /// No prompter: `false` at once.
        case absent
        /// The user types the passphrase: unlocks and answers `true`.
        case grants
        /// Waits until ``InMemorySecretServiceUnlocker/unlockElsewhere()`` or the stream ends.
        case waitsForUnlockElsewhere
    }

    private struct State {
        var behaviour: PrompterBehaviour
        var observers: [Int: AsyncStream<Bool>.Continuation] = [:]
        var nextObserver = 0
        var requests = 0
    }

    private let keychain: Keychain
    private let passphrase: String
    private let state: Locked<State>

    /// An unlocker of `keychain` with its `passphrase`, whose prompter behaves as `behaviour`.
    package init(keychain: Keychain, passphrase: String, behaviour: PrompterBehaviour = .absent) {
        self.keychain = keychain
        self.passphrase = passphrase
        self.state = Locked(State(behaviour: behaviour))
    }

    /// Changes what later prompt requests do.
    package func setBehaviour(_ behaviour: PrompterBehaviour) { state.withLock { $0.behaviour = behaviour } }

    /// How many unlock requests reached the prompter.
    package var requestCount: Int { state.withLock { $0.requests } }

    package var isLocked: Bool { keychain.lockState != .unlocked }

    package func lock() async throws {
        try keychain.lock()
        notify(locked: true)
    }

    package func requestUnlock(for caller: SecretServiceCaller) async -> Bool {
        let behaviour = state.withLock { state -> PrompterBehaviour in
            state.requests += 1
            return state.behaviour
        }
        switch behaviour {
        case .absent:
            return false
        case .grants:
            do { try await keychain.unlock(passphrase: passphrase) } catch { return false }
            notify(locked: false)
            return true
        case .waitsForUnlockElsewhere:
            for await locked in lockStateChanges() where !locked { return true }
            return false
        }
    }

    /// Unlocks the keychain as another process would (the `keychain unlock` of another terminal),
    /// and tells every observer.
    package func unlockElsewhere() throws {
        try keychain.unlock(passphrase: passphrase)
        notify(locked: false)
    }

    package func lockStateChanges() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream<Bool>.makeStream()
        let id = state.withLock { state -> Int in
            state.nextObserver += 1
            state.observers[state.nextObserver] = continuation
            return state.nextObserver
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    private func notify(locked: Bool) {
        for observer in state.withLock({ Array($0.observers.values) }) { observer.yield(locked) }
    }

    deinit {
        for observer in state.withLock({ Array($0.observers.values) }) { observer.finish() }
    }
}
