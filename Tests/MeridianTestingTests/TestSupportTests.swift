import Foundation
import Testing

@testable import MeridianTesting

/// The test support itself: missing shared data and an old binary fail loudly, and readiness is observed, not slept on.
@Suite("Test support")
struct TestSupportTests {
    @Test("a shared data folder without the files asked for is an error naming the folder, not an empty list")
    func missingSharedData() throws {
        let error = #expect(throws: TestSupportError.self) { try TestData.files(in: "no-such-folder", suffix: ".fit") }
        #expect(error?.description.contains("shared/data/no-such-folder") == true, "\(String(describing: error))")
        #expect(try TestData.files(in: "fit", suffix: ".fit").count > 10)
    }

    @Test("the binary is refused while it is missing or older than an object file it is linked from")
    func oldBinaryRefused() throws {
        let folder = try TestData.temporaryDirectory("binary")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: TestSupportError.self) { try MeridianBinary.locate(in: folder).get() }
        let binary = folder.appendingPathComponent("meridian")
        let object = folder.appendingPathComponent("MeridianCore.build/Store.swift.o")
        let spaced = folder.appendingPathComponent("Atomics.build/Unmanaged extensions.swift.o")
        let linkList = folder.appendingPathComponent("meridian.product/Objects.LinkFileList")
        for directory in [object, spaced, linkList].map({ $0.deletingLastPathComponent() }) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        // SwiftPM's list of what it links the binary from: one path a line, quoted when it has a space.
        try Data("\(object.path)\n'\(spaced.path)'\n".utf8).write(to: linkList)
        for file in [binary, object, spaced] { try Data().write(to: file) }
        let earlier = Date(timeIntervalSinceNow: -60)
        try FileManager.default.setAttributes([.modificationDate: earlier], ofItemAtPath: binary.path)
        let refused = #expect(throws: TestSupportError.self) { try MeridianBinary.locate(in: folder).get() }
        #expect(refused?.description.contains("swift build --build-tests") == true)
        #expect(
            refused?.description.contains(object.path) == true || refused?.description.contains(spaced.path) == true)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -120)], ofItemAtPath: object.path)
        let refusedForSpaced = #expect(throws: TestSupportError.self) { try MeridianBinary.locate(in: folder).get() }
        #expect(refusedForSpaced?.description.contains(spaced.path) == true)
        // Objects the list does not name (tests, examples built after the binary) do not count.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -120)], ofItemAtPath: spaced.path)
        let testObject = folder.appendingPathComponent("MeridianCoreTests.build/StoreTests.swift.o")
        try FileManager.default.createDirectory(
            at: testObject.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: testObject)
        #expect(try MeridianBinary.locate(in: folder).get() == binary.path)
    }

    @Test("the port of serve's listening line, with and without TLS and the journal's priority prefix")
    func listeningPort() {
        #expect(
            MeridianBinary.listeningPort(
                in: "info: x\nnotice: Meridian 0.1.0 listening on http://127.0.0.1:41234 (config a.yaml)\n") == 41234)
        #expect(
            MeridianBinary.listeningPort(
                in: "<5>meridian: Meridian 0.1.0 listening on https://[::1]:8443 (config a.yaml); TLS x\n") == 8443)
        #expect(MeridianBinary.listeningPort(in: "starting\n") == nil)
    }

    @Test("a listening socket is seen without connecting to it")
    func listeningSocket() throws {
        let listener = try TestListener()
        defer { listener.close() }
        #expect(TestSocket.isListening(port: listener.port))
        listener.close()
        #expect(!TestSocket.isListening(port: listener.port))
    }
}
