import Foundation

// Every credential below is a documented example or made up for this fixture.
let awsAccessKey = "AKIAIOSFODNN7EXAMPLE" // expect: hardcoded-secret
let githubToken = "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" // expect: hardcoded-secret
let headers = ["Authorization": "Bearer glpat-xxxxxxxxxxxxxxxxxxxx"] // expect: hardcoded-secret
let slack = "xoxb-1234567890-abcdefghij" // expect: hardcoded-secret
let stripe = "sk_live_4eC39HqLyjWDarjtT1zdp7dc" // expect: hardcoded-secret
let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U" // expect: hardcoded-secret
// expect-next-line: hardcoded-secret
let pem = """
-----BEGIN RSA PRIVATE KEY-----
MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu
-----END RSA PRIVATE KEY-----
"""

// Random-looking literals named like credentials.
let clientSecret = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b" // expect: hardcoded-secret
struct Config {
    var apiKey: String
    static let production = Config(apiKey: "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg") // expect: hardcoded-secret
}
let request = ["client_secret": "c2VjcmV0LXZhbHVlLTg0Mjc1OTE2MzhhYmNk"] // expect: hardcoded-secret
func configure(defaults: UserDefaults) {
    defaults.set("q83vASNFZ4mrze8BI0VniavN7wEjRWeJ", forKey: "refresh_token") // expect: hardcoded-secret, insecure-secret-storage
}
let authorization = ["Authorization": "Bearer 9fK2mQ7xZp4LwT8vRb3NcY6d"] // expect: hardcoded-secret
func sign(_ request: inout URLRequest) {
    request.setValue("Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi", forHTTPHeaderField: "X-API-Key") // expect: hardcoded-secret
}
let hmacKey = "4f1b9a2c7d3e8f60a5b1c2d3e4f5a6b7c8d9e0f1" // expect: hardcoded-secret

// Chosen passwords are judged on their decoded characters: escapes of printable characters still count.
let adminPassword = "S\u{40}grm\u{40}th8848" // expect: hardcoded-secret
// All-digit literals are still chosen for a password's, PIN's or passcode's name.
let defaultPasscode = "4829137" // expect: hardcoded-secret

// Hard-coded credential checks: a credential compared with a literal.
func checkLogin(username: String, password: String, passwordTextField: UITextField) -> Bool {
    if password == "root" { return true } // expect: hardcoded-secret
    if passwordTextField.text == "S@g@rm@7h@8848" { return true } // expect: hardcoded-secret
    if username == "Admin" && password == "This!sA5Ecret" { return true } // expect: hardcoded-secret
    return "1234" != password // expect: hardcoded-secret
}
