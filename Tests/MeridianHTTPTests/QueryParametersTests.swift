import Hummingbird
import Testing

@testable import MeridianHTTP

@Suite("Query parameters a route takes")
struct QueryParametersTests {
    private static let names: Set<String> = ["a", "b", "c"]

    /// A GET of `/x?query`.
    private static func request(_ query: String) -> Request {
        Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/x?\(query)"),
            body: .init(buffer: ByteBuffer()))
    }

    /// The message `allow` refuses `query` with, nil when it takes it.
    private static func refusal(_ query: String) -> String? {
        do {
            try QueryParameters(request(query)).allow(names)
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

    @Test(
        "pairs are Hummingbird's, escaped or not: empty pieces, no '=', several '=', a trailing '&', combining marks",
        arguments: [
            "", "a=1", "a=1&b=2", "a", "a=", "=1", "&", "&&", "a&&b", "a&", "a=1&", "&a=1", "a==1", "a=1=2",
            "lat=52.5&lon=13.4&radius_m=5000&limit=10", "q=caf\u{E9}", "a=&\u{301}b=2", "q=%20x", "q=%zz&a=1", "k%20=v",
            "q=a+b", "a=1&a=2"
        ])
    func pairs(query: String) {
        let uri = Self.request(query).uri
        let ours = QueryParameters.pairs(uri).map { [String($0.key), String($0.value)] }
        let theirs = uri.queryParameters.map { [String($0.key), String($0.value)] }
        #expect(ours == theirs)
    }
}
