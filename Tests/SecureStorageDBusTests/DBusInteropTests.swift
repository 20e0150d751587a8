import DBusTestSupport
import Foundation
import SecureStorageDBus
import SecureStorageFoundation
import XCTest

/// Our connection against D-Bus implementations nobody here wrote: libdbus's `dbus-send`
/// calling a method we serve, GLib's `gdbus` calling it too, and our call to a name owned by a
/// Python program (python3-dbus, libdbus underneath).
final class DBusInteropTests: XCTestCase {
    /// Runs `program` with `arguments`, returning its exit status and standard output.
    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// ``run(_:_:)`` off the cooperative pool.
    private static func runOffloaded(_ program: String, _ arguments: [String]) async throws
        -> (status: Int32, output: String)
    {
        let result: Result<ProgramResult, any Error> = await offloaded {
            Result {
                let (status, output) = try run(program, arguments)
                return ProgramResult(status: status, output: output)
            }
        }
        let value = try result.get()
        return (value.status, value.output)
    }

    private struct ProgramResult: Sendable {
        let status: Int32
        let output: String
    }

    private func servingEcho(on bus: PrivateBus) async throws -> DBusConnection {
        let server = try await DBusConnection.connect(to: bus.address)
        addTeardownBlock { server.close() }
        server.setMethodCallHandler { call in
            guard call.member == "Describe", call.interface == "org.example.Interop" else {
                return .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no such method")
            }
            // Reply with the arguments' signature and a value of several types.
            return .reply([
                .string(call.bodySignature), .uint32(UInt32(call.body.count)),
                .dictionary(
                    keySignature: "s", valueSignature: "v",
                    [DBusDictionaryEntry(key: .string("answer"), value: .variant(.int32(42)))])
            ])
        }
        let code = try await server.requestName("org.example.Interop", flags: 0x4)
        XCTAssertEqual(code, 1)
        return server
    }

    func testDBusSendCallsAMethodWeServe() async throws {
        let dbusSend = try requireProgram("dbus-send", package: "dbus-bin")
        let bus = try startPrivateBus()
        _ = try await servingEcho(on: bus)
        let arguments = [
            "--bus=\(bus.address)", "--print-reply", "--dest=org.example.Interop", "/org/example/Interop",
            "org.example.Interop.Describe", "string:héllo", "int32:-5", "array:byte:1,2,3", "dict:string:uint32:a,1",
            "variant:boolean:true", "objpath:/a/b"
        ]
        let result = try await Self.runOffloaded(dbusSend, arguments)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("string \"siaya{su}vo\""), result.output)
        XCTAssertTrue(result.output.contains("uint32 6"), result.output)
        XCTAssertTrue(result.output.contains("string \"answer\""), result.output)
        XCTAssertTrue(result.output.contains("int32 42"), result.output)
        // An unknown method gets our error reply.
        let unknown = try await Self.runOffloaded(
            dbusSend,
            ["--bus=\(bus.address)", "--print-reply", "--dest=org.example.Interop", "/", "org.example.Interop.Nope"])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.output.contains("org.freedesktop.DBus.Error.UnknownMethod"), unknown.output)
    }

    func testGDBusCallsAMethodWeServe() async throws {
        let gdbus = try requireProgram("gdbus", package: "libglib2.0-bin")
        let bus = try startPrivateBus()
        _ = try await servingEcho(on: bus)
        let result = try await Self.runOffloaded(
            gdbus,
            [
                "call", "--address", bus.address, "--dest", "org.example.Interop", "--object-path",
                "/org/example/Interop", "--method", "org.example.Interop.Describe", "x", "7", "[1, 2]"
            ])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("('siai', uint32 3,"), result.output)
        XCTAssertTrue(result.output.contains("<42>"), result.output)
    }

    func testOurCallReachesAPythonDBusService() async throws {
        let python = "/usr/bin/python3"
        let probe = try? Self.run(
            python, ["-c", "import dbus, dbus.service, dbus.mainloop.glib; from gi.repository import GLib"])
        guard probe?.status == 0 else {
            throw XCTSkip("python3-dbus with python3-gi is not installed at /usr/bin/python3")
        }
        let bus = try startPrivateBus()
        let script = """
            import sys, dbus, dbus.service, dbus.mainloop.glib
            from gi.repository import GLib
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            bus = dbus.bus.BusConnection(sys.argv[1])
            class Service(dbus.service.Object):
                @dbus.service.method("org.example.Py", in_signature="sa{sv}ay", out_signature="sua{sv}")
                def Inspect(self, text, mapping, blob):
                    return (text.upper(), sum(blob), {"keys": dbus.Array(sorted(mapping.keys()), signature="s")})
                @dbus.service.method("org.example.Py", in_signature="", out_signature="h")
                def Pipe(self):
                    import os
                    read_end, write_end = os.pipe()
                    os.write(write_end, b"from python")
                    os.close(write_end)
                    return dbus.types.UnixFd(read_end)
                @dbus.service.method("org.example.Py", in_signature="", out_signature="")
                def Raise(self):
                    raise dbus.exceptions.DBusException("refused by python", name="org.example.Py.Error.Refused")
            name = dbus.service.BusName("org.example.Py", bus)
            Service(bus, "/org/example/Py")
            print("ready", flush=True)
            GLib.MainLoop().run()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, bus.address]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        addTeardownBlock {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let reader = output.fileHandleForReading
        let ready = await offloaded {
            var printed = Data()
            while !printed.contains(UInt8(ascii: "\n")) {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                printed.append(chunk)
            }
            return printed
        }
        XCTAssertEqual(String(decoding: ready, as: UTF8.self), "ready\n")

        let client = try await DBusConnection.connect(to: bus.address)
        defer { client.close() }
        let reply = try await client.call(
            destination: "org.example.Py", path: "/org/example/Py", interface: "org.example.Py", member: "Inspect",
            body: [
                .string("shout"),
                .dictionary(
                    keySignature: "s", valueSignature: "v",
                    [
                        DBusDictionaryEntry(key: .string("b"), value: .variant(.uint64(1))),
                        DBusDictionaryEntry(key: .string("a"), value: .variant(.string("x")))
                    ]),
                .array(elementSignature: "y", [.byte(10), .byte(20), .byte(30)])
            ])
        XCTAssertEqual(reply.count, 3)
        XCTAssertEqual(reply.first, .string("SHOUT"))
        XCTAssertEqual(reply.dropFirst().first, .uint32(60))
        guard case .dictionary("s", "v", let entries)? = reply.last else { return XCTFail("reply \(reply)") }
        XCTAssertEqual(entries.first?.value, .variant(.array(elementSignature: "s", [.string("a"), .string("b")])))
        // A descriptor in a reply reaches us (SCM_RIGHTS) and reads what Python wrote.
        let piped = try await client.call(
            DBusMessage(
                kind: .methodCall, path: "/org/example/Py", interface: "org.example.Py", member: "Pipe",
                destination: "org.example.Py"))
        defer { piped.closeFileDescriptors() }
        XCTAssertEqual(piped.body, [.unixFD(0)])
        XCTAssertEqual(piped.unixFileDescriptors.count, 1)
        if let descriptor = piped.unixFileDescriptors.first {
            XCTAssertEqual(fcntl(descriptor, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC)
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(descriptor, &buffer, buffer.count)
            XCTAssertEqual(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self), "from python")
        }
        do {
            _ = try await client.call(
                destination: "org.example.Py", path: "/org/example/Py", interface: "org.example.Py", member: "Raise")
            XCTFail("python's exception came back as values")
        } catch let error as DBusError {
            XCTAssertEqual(error.name, "org.example.Py.Error.Refused")
            XCTAssertEqual(error.message, "refused by python")
        }
    }
}

extension DBusInteropTests {
    func testTheBusActivatesAServiceFromTheServiceDirectory() async throws {
        let python = "/usr/bin/python3"
        let probe = try? Self.run(
            python, ["-c", "import dbus, dbus.service, dbus.mainloop.glib; from gi.repository import GLib"])
        guard probe?.status == 0 else {
            throw XCTSkip("python3-dbus with python3-gi is not installed at /usr/bin/python3")
        }
        let bus = try startPrivateBus()
        // The activated program connects to DBUS_STARTER_ADDRESS, which the bus sets for it.
        let program = bus.directory.appendingPathComponent("activated.py")
        try """
        import os, dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(os.environ["DBUS_STARTER_ADDRESS"])
        class Service(dbus.service.Object):
            @dbus.service.method("org.example.Activated", in_signature="", out_signature="s")
            def Who(self):
                return "activated"
        name = dbus.service.BusName("org.example.Activated", bus)
        Service(bus, "/org/example/Activated")
        GLib.MainLoop().run()

        """.write(to: program, atomically: false, encoding: .utf8)
        try """
        [D-BUS Service]
        Name=org.example.Activated
        Exec=\(python) \(program.path)

        """.write(
            to: bus.serviceDirectory.appendingPathComponent("org.example.Activated.service"), atomically: false,
            encoding: .utf8)
        let client = try await DBusConnection.connect(to: bus.address)
        defer { client.close() }
        let reply = try await client.call(
            destination: "org.example.Activated", path: "/org/example/Activated", interface: "org.example.Activated",
            member: "Who", timeout: .seconds(20))
        XCTAssertEqual(reply, [.string("activated")])
        let owner = try await client.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetConnectionUnixProcessID", body: [.string("org.example.Activated")])
        guard case .uint32(let pid)? = owner.first else { return XCTFail("no pid for the activated service") }
        kill(pid_t(pid), SIGKILL)
    }
}
