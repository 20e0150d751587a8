import Foundation
import Security
import SwiftUI
import UIKit

@MainActor
final class TokenModel {
    func load(_ query: CFDictionary) -> OSStatus {
        var result: AnyObject?
        return SecItemCopyMatching(query, &result) // expect: secitem-on-main-actor
    }
}

final class LoginViewController: UIViewController {
    func save(_ query: CFDictionary) -> OSStatus {
        SecItemAdd(query, nil) // expect: secitem-on-main-actor
    }
}

struct LoginView: View {
    var body: some View {
        Button("Sign out") {
            let status = SecItemDelete([kSecClass: kSecClassGenericPassword] as CFDictionary) // expect: secitem-on-main-actor
            _ = status == errSecSuccess
        }
    }
}

func refresh(_ query: CFDictionary) {
    DispatchQueue.main.async {
        let status = SecItemUpdate(query, [:] as CFDictionary) // expect: secitem-on-main-actor
        print(status == errSecSuccess)
    }
    Task { @MainActor in
        let status = SecItemDelete(query) // expect: secitem-on-main-actor
        print(status == errSecSuccess)
    }
}

func onMainQueue(_ query: CFDictionary) {
    OperationQueue.main.addOperation {
        let status = SecItemDelete(query) // expect: secitem-on-main-actor
        print(status == errSecSuccess)
    }
}
