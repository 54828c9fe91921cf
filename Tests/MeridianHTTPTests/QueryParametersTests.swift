import Hummingbird
import Testing

@testable import MeridianHTTP

@Suite("Query parameters a route takes")
struct QueryParametersTests {
    private static let names: Set<String> = ["a", "b", "c"]

    /// The message `allow` refuses `query` with, nil when it takes it.
    private static func refusal(_ query: String) -> String? {
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/x?\(query)"),
            body: .init(buffer: ByteBuffer()))
        do {
            try QueryParameters(request).allow(names)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("known parameters pass, once each; an unknown one is named beside the ones the route takes")
    func known() {
        #expect(Self.refusal("") == nil)
        #expect(Self.refusal("a=1&b=2&c=") == nil)
        #expect(Self.refusal("a=1&d=2") == "unknown query parameter 'd'; this route takes a, b, c")
    }

    @Test("a parameter given twice is refused, among few parameters and among many")
    func repeated() {
        #expect(Self.refusal("a=1&b=2&a=3") == "query parameter 'a' is given more than once; give it once")
        let many = (0..<40).map { "\(["a", "b", "c"][$0 % 3])=\($0)" }.joined(separator: "&")
        #expect(Self.refusal(many) == "query parameter 'a' is given more than once; give it once")
    }
}
