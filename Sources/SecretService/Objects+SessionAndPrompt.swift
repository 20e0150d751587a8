import SecureStorageDBus

/// `org.freedesktop.Secret.Session` and `org.freedesktop.Secret.Prompt` (spec 0.2).
extension SecretServiceObjects {
    func sessionMethod(_ path: String, _ member: String, _ body: [DBusValue], _ caller: SecretServiceCaller) throws
        -> [DBusValue]
    {
        guard member == "Close" else {
            throw SecretServiceError.unknownMethod(member, interface: SecretServiceNames.sessionInterface, path: path)
        }
        _ = try MethodArguments(member: member, body: body, signature: "")
        try sessions.close(path, caller: caller.uniqueName)
        return []
    }

    func promptMethod(_ path: String, _ member: String, _ body: [DBusValue], _ caller: SecretServiceCaller) throws
        -> [DBusValue]
    {
        switch member {
        case "Prompt":
            _ = try MethodArguments(member: member, body: body, signature: "s")
            _ = try prompts.start(path, owner: caller.uniqueName) { prompt in
                await self.runUnlockPrompt(prompt, path: path)
            }
            return []
        case "Dismiss":
            _ = try MethodArguments(member: member, body: body, signature: "")
            guard prompts.finish(path, cancelling: true) != nil else { throw SecretServiceError.unknownObject(path) }
            Task { await self.completePrompt(path, owner: caller.uniqueName, unlocked: nil) }
            return []
        default:
            throw SecretServiceError.unknownMethod(member, interface: SecretServiceNames.promptInterface, path: path)
        }
    }

    /// Runs an unlock prompt: done at once when the keychain is unlocked, else whichever comes
    /// first of the unlocker's answer (`false` at once without a prompter) and an unlock by
    /// another process; then `Completed` goes to the prompt's owner.
    private func runUnlockPrompt(_ prompt: PromptRegistry.Prompt, path: String) async {
        let changes = unlocker.lockStateChanges()
        if unlocker.isLocked {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = await self.unlocker.requestUnlock(for: prompt.caller) }
                group.addTask {
                    for await locked in changes where !locked { return }
                }
                await group.next()
                group.cancelAll()
            }
        }
        guard !Task.isCancelled, prompts.finish(path, cancelling: false) != nil else { return }
        await completePrompt(path, owner: prompt.owner, unlocked: unlocker.isLocked ? nil : prompt.objects)
    }

    /// Emits `Completed(dismissed, result)`: the unlocked objects, or dismissed with none.
    func completePrompt(_ path: String, owner: String, unlocked: [String]?) async {
        if unlocked != nil { collections.reload() }
        await signals.emit(
            path: path, interface: SecretServiceNames.promptInterface, member: "Completed",
            body: [.boolean(unlocked == nil), .variant(.objectPaths(unlocked ?? []))], destination: owner)
    }
}
