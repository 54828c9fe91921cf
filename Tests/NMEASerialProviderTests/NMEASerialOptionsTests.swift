import Foundation
import MeridianCore
import MeridianTesting
import NMEA
import Testing

@testable import NMEASerialProvider

@Suite("nmea-serial options, errors and framing")
struct NMEASerialOptionsTests {
    @Test("defaults and all options")
    func decoding() throws {
        let minimal = try NMEASerialOptions.decode(PluginOptions(yaml: "device: /dev/ttyUSB0"))
        #expect(
            minimal
                == NMEASerialOptions(
                    device: "/dev/ttyUSB0", baud: 4800, checksum: .required, initSentences: [], silenceTimeout: 5))
        let full = try NMEASerialOptions.decode(
            PluginOptions(
                yaml: """
                    device: /dev/ttyACM0
                    baud: 115200
                    checksum: optional
                    init: ["PMTK220,200"]
                    silence_timeout: 2.5
                    """))
        #expect(
            full
                == NMEASerialOptions(
                    device: "/dev/ttyACM0", baud: 115_200, checksum: .optional, initSentences: ["PMTK220,200"],
                    silenceTimeout: 2.5))
    }

    @Test("a non-standard baud names the key and lists the allowed rates")
    func badBaud() throws {
        #expect {
            _ = try NMEASerialOptions.decode(
                PluginOptions(yaml: "device: /dev/ttyUSB0\nbaud: 4801", path: "providers[0]"))
        } throws: { error in
            let text = "\(error)"
            return text.contains("providers[0].baud")
                && text.contains("4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600")
        }
    }

    @Test(
        "other bad values name their key",
        arguments: [
            ("device: /dev/ttyUSB0\nchecksum: maybe", "checksum"), ("device: ttyUSB0", "device"),
            ("device: /dev/ttyUSB0\nsilence_timeout: 0", "silence_timeout"),
            ("device: /dev/ttyUSB0\nparity: none", "parity"),
            ("baud: 4800", "device"), ("device: /dev/ttyUSB0\ninit: [\"\"]", "init")
        ])
    func badValues(yaml: String, key: String) throws {
        #expect {
            _ = try NMEASerialOptions.decode(PluginOptions(yaml: yaml, path: "providers[0]"))
        } throws: { error in
            "\(error)".contains("providers[0]") && "\(error)".contains(key)
        }
    }

    @Test("the registration builds a provider with the configured id")
    func registration() throws {
        let context = ProviderContext(plugin: PluginContext(id: "boat", logger: .init(label: "t"))) { _ in }
        let provider = try NMEASerialProvider.registration.make(PluginOptions(yaml: "device: /dev/ttyUSB0"), context)
        #expect(provider.id == "boat" && NMEASerialProvider.registration.type == "nmea-serial")
        #expect(
            NMEASerialProvider.registration.options.map(\.name) == [
                "device", "baud", "checksum", "init", "silence_timeout"
            ])
    }

    @Test("init sentences get $, checksum and CRLF only where missing")
    func initFraming() throws {
        #expect(String(decoding: try InitSentence.frame("PMTK220,200"), as: UTF8.self) == "$PMTK220,200*2C\r\n")
        #expect(String(decoding: try InitSentence.frame("$PMTK220,200"), as: UTF8.self) == "$PMTK220,200*2C\r\n")
        #expect(
            String(decoding: try InitSentence.frame("$PUBX,40,GSV,0,0,0,0*59\r\n"), as: UTF8.self)
                == "$PUBX,40,GSV,0,0,0,0*59\r\n")
        #expect(throws: InitSentence.Problem.self) { try InitSentence.frame("  ") }
        #expect(throws: InitSentence.Problem.self) { try InitSentence.frame("PMTK\u{7}") }
    }

    // Tests run as root, where chmod 000 does not produce EACCES; the errno mapping is tested directly.
    @Test("EACCES/EPERM tell the user to join the dialout group; a missing device names the path")
    func errorMessages() {
        for code in [EACCES, EPERM] {
            let message = SerialOpenError(path: "/dev/ttyUSB0", operation: "open", code: code).description
            #expect(message.contains("dialout") && message.contains("/dev/ttyUSB0"))
        }
        let missing = SerialOpenError(path: "/dev/ttyUSB7", operation: "open", code: ENOENT).description
        #expect(missing.contains("/dev/ttyUSB7") && missing.contains("does not exist"))
        #expect(SerialOpenError(path: "/dev/x", operation: "open", code: EBUSY).description.contains("busy"))
        #expect(
            SerialOpenError(path: "/tmp/file", operation: "tcgetattr", code: ENOTTY).description.contains(
                "not a serial device"))
    }

    @Test("opening a regular file fails with 'not a serial device'; opening a missing path with ENOENT")
    func openFailures() throws {
        let directory = try TestData.temporaryDirectory("serial")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("plain.txt")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8)))
        #expect(throws: SerialOpenError(path: file.path, operation: "tcgetattr", code: ENOTTY)) {
            _ = try SerialPort.open(path: file.path, baud: 4800)
        }
        #expect(throws: SerialOpenError(path: "/nonexistent/tty", operation: "open", code: ENOENT)) {
            _ = try SerialPort.open(path: "/nonexistent/tty", baud: 4800)
        }
    }

    @Test("every standard rate has a termios speed; others do not")
    func speeds() {
        #expect(NMEASerialOptions.standardBaudRates.allSatisfy { SerialPort.speed(for: $0) != nil })
        #expect(SerialPort.speed(for: 4801) == nil)
    }

    @Test("the default reopening schedule is 1 s doubling to 30 s")
    func defaultBackoff() {
        var backoff = SerialTiming().backoff
        #expect(
            (0..<7).map { _ in backoff.nextDelay() } == [
                .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30), .seconds(30)
            ])
    }
}
