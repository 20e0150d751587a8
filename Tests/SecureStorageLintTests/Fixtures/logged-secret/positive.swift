import Foundation
import Security
import os

func readToken(_ query: CFDictionary) -> String? {
    var result: AnyObject?
    let status = SecItemCopyMatching(query, &result)
    guard status == errSecSuccess, let data = result as? Data else { return nil }
    let token = String(data: data, encoding: .utf8)
    print("token: \(token ?? "")") // expect: logged-secret
    NSLog("read %@", data as NSData) // expect: logged-secret
    return token
}

func useWrapper(keychain: KeychainWrapperLike, logger: Logger) {
    if let password = keychain.string(forKey: "password") {
        logger.debug("password \(password, privacy: .public)") // expect: logged-secret
    }
    print(keychain["apiKey"] ?? "") // expect: logged-secret
}

// A function of this file that returns what it read is a source too.
func retrievePassword(service: String) -> String? {
    var result: AnyObject?
    let status = SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecReturnData: true] as CFDictionary, &result)
    if status == errSecSuccess, let data = result as? Data, let password = String(data: data, encoding: .utf8) {
        return password
    }
    return nil
}

func show() {
    if let password = retrievePassword(service: "mail") {
        print("Password: \(password)") // expect: logged-secret
    }
}

protocol KeychainWrapperLike {
    func string(forKey key: String) -> String?
    subscript(key: String) -> String? { get }
}

func qualified(_ query: CFDictionary) {
    var result: AnyObject?
    guard SecItemCopyMatching(query, &result) == errSecSuccess, let token = result as? Data else { return }
    Swift.print(token) // expect: logged-secret
    Logger(subsystem: "app", category: "auth").debug("\(String(decoding: token, as: UTF8.self), privacy: .public)") // expect: logged-secret
}

// A message that labels an interpolated value as a credential, whatever the value is called.
func logLabelled(aVendor: String, value: String, p: String) {
    print("encryption key is \(aVendor)") // expect: logged-secret
    NSLog("token: \(value)") // expect: logged-secret
    print("password=\(p)") // expect: logged-secret
}

// Capitalised local names are judged like lower-case ones.
func authorize(with stored: NSDictionary) {
    let JWT = stored.object(forKey: "token") as? String
    let Bearer = "Bearer " + JWT!
    print("RESULT", Bearer) // expect: logged-secret
}

// A type without its own description prints its stored properties, the token among them.
struct PlainAccount {
    let userID: String
    let accessToken: String
}
func checkPlain(_ account: PlainAccount) {
    print("Checking account: \(account)") // expect: logged-secret
}

// A member of a self-describing type is still the credential.
struct DescribedAccount: CustomStringConvertible {
    let accessToken: String
    var description: String { "DescribedAccount" }
}
func logMember(_ account: DescribedAccount) {
    print("Token for account: \(account.accessToken)") // expect: logged-secret
}
