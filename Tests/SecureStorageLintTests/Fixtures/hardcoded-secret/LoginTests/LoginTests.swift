import XCTest

// Test code chooses passwords on purpose: only known formats and random literals are reported here.
final class LoginTests: XCTestCase {
    let password = "b@nkP@ssword123"

    func testSignIn() throws {
        XCTAssertTrue(signIn(user: "admin", password: "Adm1n!"))
        _ = ["awsKey": "AKIAIOSFODNN7EXAMPLE"] // expect: hardcoded-secret
    }

    func signIn(user: String, password: String) -> Bool { true }
}
