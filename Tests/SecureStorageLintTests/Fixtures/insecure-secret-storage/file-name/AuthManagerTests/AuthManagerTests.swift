import Foundation

// Test files are not held to the file-name clause: they set up state on purpose.
final class AuthManagerTests {
    func testFinish() {
        UserDefaults.standard.set("x", forKey: "v1")
    }
}
