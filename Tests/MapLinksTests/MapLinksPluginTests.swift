import Foundation
import Logging
import MeridianCore
import MeridianTesting
import Testing

@testable import MapLinkCore
@testable import MapLinks

@Suite("MapLinksPlugin registration and options")
struct MapLinksPluginTests {
    func make(_ yaml: String) throws -> MapLinksPlugin {
        let consumer = try MapLinksPlugin.registration.make(
            try PluginOptions(yaml: yaml, path: "consumers[0]"),
            PluginContext(id: "map-links", logger: Logger(label: "test")))
        return try #require(consumer as? MapLinksPlugin)
    }

    @Test("type, options and defaults")
    func registration() throws {
        #expect(MapLinksPlugin.registration.type == "map-links")
        #expect(MapLinksPlugin.registration.options.map(\.name) == ["style", "mode"])
        #expect(try make("").defaults == MapLinkBuilder(style: .apple, mode: .walking))
        #expect(try make("style: google\nmode: cycling").defaults == MapLinkBuilder(style: .google, mode: .cycling))
        #expect(try make("style: osm").defaults == MapLinkBuilder(style: .osm, mode: nil))
        #expect(try make("mode: show").defaults == MapLinkBuilder(style: .apple, mode: nil))
    }

    @Test("bad options are configuration errors naming the key")
    func badOptions() throws {
        #expect {
            try make("style: apple-legacy\nmode: cycling")
        } throws: { error in
            let error = try #require(error as? ConfigError)
            return error.path == "consumers[0].mode" && error.line == 2 && error.message.contains("apple-legacy")
        }
        #expect {
            try make("style: bing")
        } throws: { error in
            "\(error)".contains("bing") && "\(error)".contains("apple-legacy")
        }
        #expect {
            try make("colour: red")
        } throws: { error in
            "\(error)".contains("colour")
        }
        #expect {
            try make("mode: flying")
        } throws: { error in
            (error as? ConfigError)?.message == MapLinkError.unknownMode("flying").description
        }
    }
}
