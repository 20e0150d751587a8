import Foundation
import SecureStorageFoundation

/// Tells what keeps key material derived from the keychain's items (the protected files' key
/// cache) that this instance dropped its locked-class keys: at ``Keychain/lock()``, when another
/// process's passphrase change puts the instance back before its first unlock, and when this
/// instance replaces its class keys (a passphrase set, changed or removed).
///
/// A cache records ``version`` when it takes a key and uses the key only while the version is
/// unchanged; an observer runs after each change so the cache can forget its keys at once rather
/// than at its next use.
package final class KeychainLockEvents: Sendable {
    private struct State {
        var version: UInt64 = 0
        var nextObserver: UInt64 = 0
        var observers: [UInt64: @Sendable () -> Void] = [:]
    }

    private let state = Locked(State())

    package init() {}

    /// Changes at every lock or key replacement; equal values mean no key was dropped in between.
    package var version: UInt64 { state.withLock { $0.version } }

    /// Runs `handler` after every lock or key replacement of the instance, until the returned
    /// observation is released. The handler must not call back into the keychain.
    package func observe(_ handler: @escaping @Sendable () -> Void) -> KeychainLockObservation {
        let id = state.withLock { state in
            let id = state.nextObserver
            state.nextObserver += 1
            state.observers[id] = handler
            return id
        }
        return KeychainLockObservation { [weak self] in
            self?.state.withLock { state in _ = state.observers.removeValue(forKey: id) }
        }
    }

    /// Records a lock or key replacement, then tells every observer (outside the lock).
    func signal() {
        let handlers = state.withLock { state in
            state.version &+= 1
            return Array(state.observers.values)
        }
        for handler in handlers { handler() }
    }
}

/// An observer of ``KeychainLockEvents``; it stops when released.
package final class KeychainLockObservation: Sendable {
    private let cancel: @Sendable () -> Void

    init(cancel: @escaping @Sendable () -> Void) { self.cancel = cancel }

    deinit { cancel() }
}

extension Keychain {
    /// The lock events of this instance, for caches of keys taken from its items.
    package var lockEvents: KeychainLockEvents { keys.lockEvents }
}
