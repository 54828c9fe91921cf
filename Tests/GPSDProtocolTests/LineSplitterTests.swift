import GPSDProtocol
import Testing

@Suite("Line splitting")
struct LineSplitterTests {
    @Test("lines are split at LF, CR is dropped, overlong lines are discarded as they arrive and counted")
    func lineFraming() {
        var splitter = LineSplitter(maximumLength: 16)
        var buffer: [UInt8] = []
        var frames: [String] = []
        func drain() {
            while true {
                let (frame, consumed) = splitter.next(in: buffer)
                if let frame { frames.append(Self.text(frame, in: buffer)) }
                buffer.removeFirst(consumed)
                if frame == nil { return }
            }
        }
        for chunk in ["first\r\nsec", "ond\n"] + Array(repeating: "0123456789", count: 100) + [
            "tail of the long line\nafter\nunterminated"
        ] {
            buffer += Array(chunk.utf8)
            drain()
            #expect(buffer.count <= 16 + 10, "an overlong line must not accumulate")
        }
        if let last = splitter.tail(of: buffer) { frames.append(Self.text(last, in: buffer)) }
        #expect(frames == ["first", "second", "overlong 1021", "after", "unterminated"])
    }

    @Test("a line of exactly the limit is kept; a longer one is overlong, also when the stream ends inside it")
    func limits() {
        var splitter = LineSplitter(maximumLength: 4)
        #expect(splitter.next(in: Array("abcd\nef".utf8)) == (.line(0..<4), 5))
        #expect(splitter.next(in: Array("\r\n".utf8)) == (.line(0..<0), 2))
        #expect(splitter.next(in: Array("abcde\n".utf8)) == (.overlong(length: 5), 6))
        #expect(splitter.next(in: Array("abcd".utf8)) == (nil, 0))
        #expect(splitter.next(in: Array("abcdefg".utf8)) == (nil, 7))
        #expect(splitter.tail(of: Array("hi".utf8)) == .overlong(length: 9))
        #expect(splitter.tail(of: Array("hi".utf8)) == .line(0..<2))
        #expect(splitter.tail(of: [UInt8]()) == nil)
    }

    private static func text(_ frame: LineFrame<Range<Int>>, in bytes: [UInt8]) -> String {
        switch frame {
        case .line(let range): return String(decoding: bytes[range], as: UTF8.self)
        case .overlong(let length): return "overlong \(length)"
        }
    }
}
