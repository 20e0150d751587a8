import Foundation
import Security
import SwiftUI

@MainActor
final class TokenModel {
    nonisolated func load(_ query: CFDictionary) -> OSStatus {
        var result: AnyObject?
        return SecItemCopyMatching(query, &result)
    }

    func refresh(_ query: CFDictionary) {
        Task.detached {
            let status = SecItemDelete(query)
            print(status == errSecSuccess)
        }
        DispatchQueue.global().async {
            let status = SecItemDelete(query)
            print(status == errSecSuccess)
        }
    }
}

actor TokenStore {
    func save(_ query: CFDictionary) -> OSStatus { SecItemAdd(query, nil) }
}

func plain(_ query: CFDictionary) -> OSStatus { SecItemAdd(query, nil) }
