import Foundation

// Credentials a person chose, given a credential's name (OWASP iGoat and DVIA-v2 shapes).
let password = "b@nkP@ssword123" // expect: hardcoded-secret
var encryptionKey = "thisIsMyKey123" // expect: hardcoded-secret
let legacyPassword = "mysecretpassword" // expect: hardcoded-secret
let token = "sk-123" // expect: hardcoded-secret
let sessionToken = "tok-456" // expect: hardcoded-secret
enum Secrets {
    static let apiSecret = "s3cr3t-Value!" // expect: hardcoded-secret
    static let YapValuePassword = "TheUnknown" // expect: hardcoded-secret
    static let pinCode = "482913" // expect: hardcoded-secret
}
let basic = ["Authorization": "Basic dXNlcjpwYXNz"] // expect: hardcoded-secret
let form = ["username": "admin", "password": "hunter2!"] // expect: hardcoded-secret

struct Config {
    var secret: String
}

final class LoginController {
    var password = ""

    func signIn(keychain: KeychainLike, request: inout URLRequest) {
        login(user: "admin", password: "Adm1n!") // expect: hardcoded-secret
        _ = Config(secret: "correct-horse-42") // expect: hardcoded-secret
        self.password = "letmein99" // expect: hardcoded-secret
        keychain["password"] = "qwerty123" // expect: hardcoded-secret
        request.setValue("Bearer letmein-42", forHTTPHeaderField: "Authorization") // expect: hardcoded-secret
        keychain.set("Adm1n!2024", forKey: "password") // expect: hardcoded-secret
    }

    func connect(password: String = "default99") {} // expect: hardcoded-secret
    func login(user: String, password: String) {}
}

protocol KeychainLike: AnyObject {
    subscript(key: String) -> String? { get set }
    func set(_ value: String, forKey key: String)
}

// Secret formats stay reported next to the public keys of the same providers.
let awsSecretAccessKey = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" // expect: hardcoded-secret
let stripeSecretKey = "sk_live_4eC39HqLyjWDarjtT1zdp7dc" // expect: hardcoded-secret

// A PEM private key with its body, on one line with `\n` escapes.
let key = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7" // expect: hardcoded-secret
