import Foundation
import UIKit
import os

// What is logged about a credential without logging it, and names that only look like credentials.
func signIn(
    username: String, password: String, token: String?, savedToken: String, hasToken: Bool, tokenExpiry: Date,
    passwordHint: String, session: URLSession, logger: Logger
) {
    print(password.count)
    print(token == nil)
    print(token?.isEmpty ?? true)
    print("\(password.count) characters")
    print(String(password.count))
    print("token changed: \(token != savedToken)")
    print(hasToken)
    print(tokenExpiry)
    print(passwordHint)
    print("Invalid password")
    NSLog("Invalid password for %@", username)
    print(isStrong(password))
    print(session)
    // A push token is an address Apple hands out, not a secret.
    let apnsToken = username
    print("registered for push notifications, APNs token: \(apnsToken)")
    // Apple's unified logging redacts these.
    logger.info("\(password, privacy: .private)")
    logger.info("\(password, privacy: .private(mask: .hash))")
    logger.info("\(password, privacy: .sensitive)")
    logger.info("\(password, privacy: .auto)")
    logger.info("signed in with \(password)")
    logger.info("\(username, privacy: .public) signed in, \(password.count, privacy: .public) characters")
    os_log("%{private}@", password)
    os_log("%@", password)
    os_log("%{public}@ signed in", username)
    os_log("%{public}d characters", password.count)
    os_log(.info, "signed in with \(password)")
    // Streams of the program's own, not logs.
    var transcript = ""
    print(password, to: &transcript)
}

final class LoginController: UIViewController {
    @IBOutlet weak var passwordField: UITextField!

    func describe(credentials: Credentials) {
        print(passwordField.isSecureTextEntry)
        print(credentials.username)
        print(credentials.expiresAt)
    }
}

struct Credentials {
    var username: String
    var password: String
    var expiresAt: Date
}

func isStrong(_ text: String) -> Bool { text.count > 12 }

// The state of the secrets, not a secret: an enum named after what it describes.
enum AvailableSecrets { case complete, requiresBackup, unavailable }
func reportSecrets(_ lookup: () -> AvailableSecrets) {
    let availableSecrets = lookup()
    print("Available secrets: \(availableSecrets)")
}
func reportSecretsLabelled(_ lookup: () -> AvailableSecrets) {
    let availableSecrets = lookup()
    print("Classic app secrets: \(availableSecrets)")
}

// A class prints as its type's name: logging a whole response object shows no field.
final class WebhookResponse {
    var secret = ""
}
func logResponse(_ response: WebhookResponse) {
    print("registered: \(response)")
}
