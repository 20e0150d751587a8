import AuthenticationServices
import Security
import SwiftUI

// A view controller the rule does not know by name: its name says what it is.
final class CredentialProviderViewController: ASCredentialProviderViewController {
    func provide(_ query: CFDictionary) -> OSStatus {
        var result: AnyObject?
        return SecItemCopyMatching(query, &result) // expect: secitem-on-main-actor
    }
}

// A subclass of the module's own base view controller, declared in another file.
final class SettingsScreen: BaseViewController {
    func signOut(_ query: CFDictionary) -> OSStatus {
        SecItemDelete(query) // expect: secitem-on-main-actor
    }
}

// A subclass of that subclass, and an extension of it in this file.
final class AccountScreen: SettingsScreen {}

extension AccountScreen {
    func save(_ query: CFDictionary) -> OSStatus {
        SecItemAdd(query, nil) // expect: secitem-on-main-actor
    }

    nonisolated func saveInBackground(_ query: CFDictionary) -> OSStatus {
        SecItemAdd(query, nil)
    }
}

// Conforming to the module's @MainActor protocol.
struct PinScreen: Screen {
    func check(_ query: CFDictionary) -> OSStatus {
        SecItemCopyMatching(query, nil) // expect: secitem-on-main-actor
    }
}

// An extension of a plain type of the module, and an actor: not the main actor.
extension TokenStore {
    func read(_ query: CFDictionary) -> OSStatus {
        SecItemCopyMatching(query, nil)
    }
}

actor TokenActor: Screen {
    func read(_ query: CFDictionary) -> OSStatus {
        SecItemCopyMatching(query, nil)
    }
}

// A controller that is not a view controller.
final class FetchController: NSFetchedResultsController<NSManagedObject> {
    func read(_ query: CFDictionary) -> OSStatus {
        SecItemCopyMatching(query, nil)
    }
}
