import SecureStorageFoundation

/// The prompts `Unlock` returned, each owned by the unique bus name that asked. A prompt runs
/// once (`Prompt`), can be dismissed (`Dismiss`), and goes when its owner leaves the bus.
final class PromptRegistry: Sendable {
    /// The most prompts one client may hold.
    static let promptsPerClient = 16

    /// What a prompt does when run: unlock these object paths.
    struct Prompt: Sendable {
        var owner: String
        var caller: SecretServiceCaller
        var objects: [String]
        var running: Task<Void, Never>?
    }

    private struct State {
        var prompts: [String: Prompt] = [:]
        var next = 0
    }

    private let state = Locked(State())

    /// Creates a prompt for `caller` that unlocks `objects`; returns its path.
    func create(caller: SecretServiceCaller, objects: [String]) throws(SecretServiceError) -> String {
        try state.withLock { state throws(SecretServiceError) -> String in
            guard state.prompts.values.count(where: { $0.owner == caller.uniqueName }) < Self.promptsPerClient else {
                throw .tooMany("prompts", limit: Self.promptsPerClient)
            }
            state.next += 1
            let path = SecretServiceNames.promptPrefix + "p\(state.next)"
            state.prompts[path] = Prompt(owner: caller.uniqueName, caller: caller, objects: objects)
            return path
        }
    }

    /// Whether `path` is a prompt of `owner`.
    func exists(_ path: String, owner: String) -> Bool { state.withLock { $0.prompts[path]?.owner == owner } }

    /// Starts `path` with `body` if `owner` owns it and it is not running yet; returns the prompt.
    func start(_ path: String, owner: String, body: @escaping @Sendable (Prompt) async -> Void)
        throws(SecretServiceError) -> Bool
    {
        try state.withLock { state throws(SecretServiceError) -> Bool in
            guard var prompt = state.prompts[path], prompt.owner == owner else { throw .unknownObject(path) }
            guard prompt.running == nil else { return false }
            let snapshot = prompt
            prompt.running = Task { await body(snapshot) }
            state.prompts[path] = prompt
            return true
        }
    }

    /// Removes `path` (completed or dismissed) and returns it; cancels its task when `cancelling`.
    @discardableResult
    func finish(_ path: String, cancelling: Bool) -> Prompt? {
        let prompt = state.withLock { $0.prompts.removeValue(forKey: path) }
        if cancelling { prompt?.running?.cancel() }
        return prompt
    }

    /// The prompt at `path` if `owner` owns it.
    func prompt(_ path: String, owner: String) -> Prompt? {
        state.withLock { $0.prompts[path].flatMap { $0.owner == owner ? $0 : nil } }
    }

    /// Dismisses every prompt of a client that left the bus (no signal: nobody is there to get it).
    func dismissAll(of owner: String) {
        let gone = state.withLock { state -> [Prompt] in
            let gone = state.prompts.values.filter { $0.owner == owner }
            state.prompts = state.prompts.filter { $0.value.owner != owner }
            return Array(gone)
        }
        for prompt in gone { prompt.running?.cancel() }
    }

    /// The paths of `owner`'s prompts.
    func paths(of owner: String) -> [String] {
        state.withLock { $0.prompts.filter { $0.value.owner == owner }.keys.sorted() }
    }

    /// How many prompts exist (for tests).
    var count: Int { state.withLock { $0.prompts.count } }
}
