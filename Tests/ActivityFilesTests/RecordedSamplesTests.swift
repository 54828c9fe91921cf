import ActivityFiles
import Foundation
import Testing

/// `RecordedSamples` behaves as an array of samples across its chunks, and `drain` hands every sample over in order.
@Suite("recorded samples in chunks")
struct RecordedSamplesTests {
    /// `count` samples one second apart, the heart rate numbering them.
    private static func samples(_ count: Int) -> [RecordedSample] {
        (0..<count).map { index in
            RecordedSample(
                time: Date(timeIntervalSince1970: 1_714_546_800 + Double(index)), heartRate: Double(index))
        }
    }

    @Test("appended across several chunks, read and changed in place by index, equal to the same samples")
    func arrayLike() {
        let plain = Self.samples(40_000)
        var chunked = RecordedSamples()
        for sample in plain { chunked.append(sample) }
        #expect(chunked.count == plain.count)
        #expect(Array(chunked) == plain)
        #expect(chunked[16_383].heartRate == 16_383 && chunked[16_384].heartRate == 16_384)
        #expect(chunked.first == plain.first && chunked.last == plain.last)
        chunked[20_000].heartRate = nil
        #expect(chunked[20_000].heartRate == nil && chunked[19_999].heartRate == 19_999)
        #expect(chunked != RecordedSamples(plain))
        chunked[20_000].heartRate = 20_000
        #expect(chunked == RecordedSamples(plain))
    }

    @Test("insertions and removals keep the order")
    func replaced() {
        var chunked = RecordedSamples(Self.samples(20_000))
        chunked.removeFirst(3)
        chunked.insert(contentsOf: Self.samples(2), at: 100)
        var plain = Self.samples(20_000)
        plain.removeFirst(3)
        plain.insert(contentsOf: Self.samples(2), at: 100)
        #expect(Array(chunked) == plain)
    }

    @Test("drain hands every sample over once, in order, and leaves the samples empty")
    func drain() {
        var chunked = RecordedSamples(Self.samples(50_000))
        var seen: [Double] = []
        chunked.drain { seen.append($0.heartRate ?? -1) }
        #expect(seen == (0..<50_000).map(Double.init))
        #expect(chunked.isEmpty)
    }

    @Test("a copy is its own: draining or changing one leaves the other whole")
    func valueSemantics() {
        var original = RecordedSamples(Self.samples(20_000))
        var copy = original
        copy[5].heartRate = nil
        #expect(original[5].heartRate == 5)
        copy.drain { _ in }
        #expect(original.count == 20_000 && copy.isEmpty)
        original.drain { _ in }
        #expect(original.isEmpty)
    }
}
