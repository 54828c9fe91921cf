import Foundation
import Testing

@testable import FlyerProximity

@Suite("next_cursor tokens")
struct SearchCursorTests {
    @Test(
        "tokens are base64url without padding, as before, and read back",
        arguments: [
            (SearchCursor.distance(DistancePosition(distance: 12.5, id: "a/b?")), "ZDQwMjkwMDAwMDAwMDAwMDA6YS9iPw"),
            (.distance(DistancePosition(distance: 1234.5678, id: "ÿþ>?")), "ZDQwOTM0YTQ1NmQ1Y2ZhYWQ6w7_Dvj4_"),
            (.distance(DistancePosition(distance: 0, id: "f0000001")), "ZDA6ZjAwMDAwMDE")
        ] as [(SearchCursor, String)])
    func tokens(cursor: SearchCursor, token: String) {
        #expect(cursor.token == token)
        #expect(SearchCursor(token: token) == cursor)
    }

    @Test("title cursors with any text survive the round trip")
    func titles() {
        for title in ["", "Flyer 12", "a:b", "ÿþ>?~~", "🥐 croissant"] {
            let cursor = SearchCursor.title(TitlePosition(title: title, id: "id/\(title)"))
            #expect(!cursor.token.contains("=") && !cursor.token.contains("+") && !cursor.token.contains("/"))
            #expect(SearchCursor(token: cursor.token) == cursor)
        }
    }
}
