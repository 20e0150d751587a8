import SecureStorageDBus

/// Where the provider's signals go: the bus connection in ``SecretServiceProvider``, a recorder in tests.
package protocol SecretServiceSignalSink: Sendable {
    /// Emits `interface.member` from `path`; to `destination` only when given (prompt results go
    /// to the caller that ran the prompt), else to every client whose match rules ask.
    func emit(path: String, interface: String, member: String, body: [DBusValue], destination: String?) async
}
