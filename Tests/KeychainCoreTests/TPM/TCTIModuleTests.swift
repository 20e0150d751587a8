@testable import KeychainCore
import XCTest

/// Issue 34 §4.4: what reaches `Tss2_TctiLdr_Initialize` is always a known TCTI's soname
/// (no `/`, so the dynamic loader searches only the system's directories), whatever the
/// configuration after the first `:` holds.
final class TCTIModuleTests: XCTestCase {
    func testOnlyKnownTCTIsAreLoadedAndOnlyBySoname() {
        XCTAssertEqual(
            TCTIModule.loaderString(for: "swtpm:path=/tmp/x/sock"), "libtss2-tcti-swtpm.so.0:path=/tmp/x/sock")
        XCTAssertEqual(TCTIModule.loaderString(for: "device:/dev/tpmrm0"), "libtss2-tcti-device.so.0:/dev/tpmrm0")
        XCTAssertEqual(TCTIModule.loaderString(for: "tabrmd"), "libtss2-tcti-tabrmd.so.0")
        XCTAssertEqual(
            TCTIModule.loaderString(for: "libtss2-tcti-mssim.so.0:host=localhost,port=2321"),
            "libtss2-tcti-mssim.so.0:host=localhost,port=2321")
        for refused in [
            "/tmp/evil.so", "/tmp/evil.so:conf", "./libtss2-tcti-swtpm.so.0:path=/x", "../lib/libtss2-tcti-device.so.0",
            "cmd:tpm2-simulator",
            "pcap:swtpm", "SWTPM:path=/x", "", ":path=/x", "swtpm/../evil:x"
        ] {
            XCTAssertNil(TCTIModule.loaderString(for: refused), refused)
        }
        XCTAssertTrue(
            TCTIModule.refusal(of: "/tmp/evil.so:conf").contains(
                "names a library by its path (/tmp/evil.so), which would be loaded into this process"))
        XCTAssertTrue(
            TCTIModule.refusal(of: "cmd:x").contains("names the TCTI \"cmd\", which the keychain does not load"))
    }
}
