import Crypto
import Foundation
@testable import KeychainSync
import XCTest

/// Issue 35 §2: a typo in a circle code admitted a device that then reported the server as
/// tampering. Circle and approval codes end in a check group (``CodeCheck``) that refuses every
/// single substituted character and every two swapped neighbours, whatever the code.
final class CodeCheckTests: XCTestCase {
    /// Codes computed outside Swift (a few lines of Python after the ``CodeCheck`` description):
    /// the format is fixed, so a code printed by one build is taken by every later one.
    func testKnownCodesAreTaken() throws {
        let (circleID, pin) = try CircleCode.parseCircleCode(
            "AAAQ-EAYE-AUDA-OCAJ-BIFQ-YDIO-B4AA-AAAB-VKVK-VKVK-VKVK-VKVK-VKVA-LQUW")
        XCTAssertEqual(circleID, UUID(uuidString: "00010203-0405-0607-0809-0A0B0C0D0E0F"))
        XCTAssertEqual(pin, Data([0, 0, 0, 1] + [UInt8](repeating: 0xAA, count: 12)))
        XCTAssertNoThrow(try CircleCode.checkApprovalCode("MFHY-OVPJ-L45U-SJYB-Q7RT-MCSW"))
        XCTAssertNoThrow(
            try CircleCode.checkApprovalCode("abcdefghijklmnopqrstxfft"), "case and separators do not matter")
        XCTAssertNoThrow(try CircleCode.checkApprovalCode("ABCD EFGH IJKL MNOP QRST XFFT"))
    }

    func testEverySubstitutionAndAdjacentTranspositionOfACircleCodeIsRefusedAsATypo() throws {
        for _ in 0..<20 {
            let code = CircleCode.circleCode(of: try foundedRoster())
            XCTAssertEqual(code.count, 56 + 13, "14 groups of four")
            XCTAssertNoThrow(try CircleCode.parseCircleCode(code))
            let typos = CodeTypos.of(code)
            XCTAssertGreaterThan(typos.count, 56 * 31)
            for typo in typos {
                XCTAssertThrowsError(try CircleCode.parseCircleCode(typo), typo) { error in
                    XCTAssertEqual((error as? SyncError)?.code, .invalidCode, typo)
                    XCTAssertTrue(
                        "\(error)".contains(
                            "The circle code has a typo: its last group, a check over the rest, does not match (a character mistyped, or two swapped). Nothing was sent to the server."
                        ), "\(error)")
                }
            }
        }
    }

    func testEverySubstitutionAndAdjacentTranspositionOfAnApprovalCodeIsRefusedAsATypo() throws {
        for _ in 0..<100 {
            let code = CircleCode.newApprovalCode()
            XCTAssertEqual(code.count, 24 + 5, "six groups of four")
            XCTAssertNoThrow(try CircleCode.checkApprovalCode(code))
            for typo in CodeTypos.of(code) {
                XCTAssertThrowsError(try CircleCode.checkApprovalCode(typo), typo) { error in
                    XCTAssertEqual((error as? SyncError)?.code, .invalidCode, typo)
                    XCTAssertTrue(
                        "\(error)".contains(
                            "The approval code has a typo: its last group, a check over the rest, does not match (a character mistyped, or two swapped). Nothing was sent to the server and nothing was approved."
                        ), "\(error)")
                    XCTAssertFalse(
                        "\(error)".contains(CircleCode.normalized(typo)), "the join's secret is not repeated")
                }
            }
        }
    }

    /// A circle code and an approval code are told apart by their check too, not only by length.
    func testACheckGroupIsForItsKindOfCode() {
        let values = (0..<20).map { UInt8($0 % 32) }
        XCTAssertTrue(CodeCheck.isIntact(CodeCheck.appending(to: values, kind: .approval), kind: .approval))
        XCTAssertFalse(CodeCheck.isIntact(CodeCheck.appending(to: values, kind: .approval), kind: .circle))
    }

    /// Circle codes of earlier versions (52 characters, no check group) are refused with what to
    /// do; approval codes of earlier versions (20 characters) are still taken, so a join asked for
    /// before an upgrade can finish.
    func testCodesOfEarlierVersions() throws {
        let legacyCircle = String(CircleCode.normalized(CircleCode.circleCode(of: try foundedRoster())).prefix(52))
        XCTAssertThrowsError(try CircleCode.parseCircleCode(legacyCircle)) { error in
            XCTAssertEqual((error as? SyncError)?.code, .invalidCode)
            XCTAssertTrue(
                "\(error)".contains(
                    "That circle code was printed by an earlier version of keychain, without the check group that catches typos"
                ), "\(error)")
            XCTAssertTrue(
                "\(error)".contains("Run `keychain sync status` on a device of the circle that runs this version"),
                "\(error)")
        }
        XCTAssertNoThrow(try CircleCode.checkApprovalCode("MFHY-OVPJ-L45U-SJYB-Q7RT"))
    }

    func testOtherCharactersAndLengthsAreRefusedSayingWhy() {
        for (text, expected) in [
            (
                "AAAQ-EAY0-AUDA",
                "it holds characters no code has (codes use the letters A to Z and the digits 2 to 7: a 0 is the letter O"
            ),
            (
                "AAAQ-EAYE-AUDA",
                "it has 12 letters and digits, and a circle code has 56 (14 groups of four, dashes optional)"
            )
        ] {
            XCTAssertThrowsError(try CircleCode.parseCircleCode(text)) {
                XCTAssertTrue("\($0)".contains(expected), "\($0)")
            }
        }
        XCTAssertThrowsError(try CircleCode.checkApprovalCode("MFHY-OVPJ-L45U-SJYB-Q7RT-MCS")) {
            XCTAssertTrue(
                "\($0)".contains(
                    "it has 23 letters and digits, and an approval code has 24 (6 groups of four, dashes optional)"),
                "\($0)")
        }
    }

    // MARK: - Helpers

    /// A roster with its founding event, as `createCircle` makes it.
    private func foundedRoster() throws -> Roster {
        let deviceID = UUID()
        let signing = Curve25519.Signing.PrivateKey()
        let agreement = Curve25519.KeyAgreement.PrivateKey()
        var roster = Roster(circleID: UUID())
        var founding = roster.nextEvent(.founded, author: deviceID, subject: deviceID)
        (founding.signingKey, founding.agreementKey, founding.name) = (
            signing.publicKey.rawRepresentation, agreement.publicKey.rawRepresentation, "founder"
        )
        try founding.sign(with: signing, circleID: roster.circleID)
        try roster.apply(founding)
        return roster
    }
}
