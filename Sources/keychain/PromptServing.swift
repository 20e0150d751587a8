import ArgumentParser
import Foundation
import KeychainCore
import SecureStorageFoundation

/// `keychain unlock --serve-prompts`: this terminal becomes the keychain agent's prompter
/// (``AgentPrompterLink``). For each unlock request (a Secret Service client's `Unlock`, or a
/// program's `requestUnlock`) it prints who asks, escaped, reads the passphrase with echo off,
/// and prints the outcome; then it waits for the next. Ctrl-C ends it (the terminal is restored).
struct PromptServing {
    let keychain: Keychain
    let agent: KeychainAgentClient
    /// How long an unlock typed here lasts (`nil`: until `keychain lock`).
    let duration: Duration?

    private static let forever: Duration = .seconds(3600)

    func run() throws {
        let link = try reportingErrors { try agent.servePrompts() }
        printError(
            "answering unlock requests for \(keychain.location.databaseURL.path) (keychaind pid \(agent.status.pid)); Ctrl-C to stop"
        )
        while true {
            guard case .prompt(let id, let reason)? = try next(link) else { continue }
            printError("\(PrintableText.sanitized(reason)) asks to unlock the keychain.")
            try serve(prompt: id, on: link)
            printError("waiting for the next request")
        }
    }

    /// Asks for the passphrase until prompt `id` is closed (unlocked, declined, withdrawn).
    private func serve(prompt id: UInt64, on link: AgentPrompterLink) throws {
        var attempt = 1
        while true {
            let asked = SecretInput.readLine(
                prompt: "Passphrase (empty or Ctrl-D to decline): ", watching: link.descriptor)
            switch asked {
            case .interrupted: break
            case .endOfInput, .line(""): try reportingErrors { try link.decline(id: id) }
            case .line(let passphrase):
                try reportingErrors { try link.answer(id: id, passphrase: passphrase, duration: duration) }
            }
            // Until this prompt's outcome: a failure (wrong passphrase, ask again) or its closing.
            while true {
                switch try next(link) {
                case .closed(id, let closing)?:
                    printError(Self.describe(closing))
                    return
                case .failed(let error)?:
                    attempt += 1
                    printError("keychain: \(error.message) (attempt \(attempt) of \(AgentPrompts.maximumAttempts))")
                case .prompt?, .registered?, .closed?, nil: continue
                }
                break
            }
        }
    }

    private func next(_ link: AgentPrompterLink) throws -> AgentPrompterLink.Event? {
        do { return try link.next(timeout: Self.forever) } catch {
            if error.code == .keychainUnavailable {
                try reportingErrors { () throws -> Never in throw KeychainError.promptsAgentGone() }
            }
            try reportingErrors { () throws -> Never in throw error }
        }
    }

    /// What the terminal says when a prompt closes.
    static func describe(_ closing: AgentPromptClosing) -> String {
        switch closing {
        case .unlocked: "unlocked"
        case .unlockedElsewhere: "the keychain was unlocked elsewhere; the request is satisfied"
        case .withdrawn: "the request was withdrawn (the program stopped asking)"
        case .declined: "declined; the keychain stays locked"
        case .tooManyAttempts:
            "\(AgentPrompts.maximumAttempts) wrong passphrases: declined; the keychain stays locked"
        }
    }
}
