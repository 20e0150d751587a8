import Foundation
import UIKit

// Credentials known by their names, whatever their origin (no keychain here), reaching a log.
struct User {
    var name: String
    var password: String
}

func signIn(user: User, password: String, token: String?, authToken: String, credentials: [String: String]) {
    print(password) // expect: logged-secret
    print("token: \(token ?? "")") // expect: logged-secret
    debugPrint(credentials) // expect: logged-secret
    dump(user.password) // expect: logged-secret
    NSLog("%@", authToken) // expect: logged-secret
    print("user", user.name, "signed in with", password, separator: " ") // expect: logged-secret
    print(String(describing: token)) // expect: logged-secret
    print(authToken.trimmingCharacters(in: .whitespaces)) // expect: logged-secret
}

func unifiedLogging(authToken: String, logger: Logger) {
    // os_log: `{public}` makes a string public; scalars are public unless marked private.
    os_log("%{public}@", authToken) // expect: logged-secret
    os_log("token %{public}s", log: .default, type: .debug, authToken) // expect: logged-secret
    os_log("%d items, token %{public}@", log: .default, 3, authToken) // expect: logged-secret
    // Logger and os_log with an interpolated message: only `.public` is kept unredacted.
    logger.info("\(authToken, privacy: .public)") // expect: logged-secret
    Logger(subsystem: "app", category: "auth").debug("token \(authToken, privacy: .public)") // expect: logged-secret
    os_log(.debug, "token \(authToken, privacy: .public)") // expect: logged-secret
}

// Loggers that are not Apple's unified logging (no `import os` in this file) write everything.
func thirdPartyLogger(log: AppLog, refreshToken: String) {
    log.debug("refreshing with \(refreshToken)") // expect: logged-secret
    DDLogInfo("refresh token \(refreshToken)") // expect: logged-secret
    Current.Log.error("Unable to encrypt the payload, secret: \(refreshToken)") // expect: logged-secret
    log.debug("token \(refreshToken.hash) was revoked")
    log.debug("refreshing the token")
}

// A form's text fields named for the credential they hold (OWASP iGoat's device-log exercise).
final class DeviceLogsController: UIViewController {
    @IBOutlet weak var pinTextField: UITextField!
    @IBOutlet weak var passwordField: UITextField!

    func submit(params: [String: String]) {
        NSLog("pinNo: %@", pinTextField.text ?? "") // expect: logged-secret
        print("password: \(passwordField.text!)") // expect: logged-secret
        print(params["password"] ?? "") // expect: logged-secret
    }
}

func crash(apiSecret: String) -> Never {
    fatalError("unexpected secret \(apiSecret)") // expect: logged-secret
}

protocol AppLog {
    func debug(_ message: String)
}
