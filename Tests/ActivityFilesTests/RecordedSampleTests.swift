import ActivityFiles
import Foundation
import Testing

/// A sample's size matters: an import holds up to `ActivityFileReader.maximumSamples` of them at once.
@Suite("recorded samples: compact, and nil stays nil")
struct RecordedSampleTests {
    @Test("a sample takes at most 128 bytes (208 with every measurement an Optional<Double>)")
    func compact() {
        #expect(MemoryLayout<RecordedSample>.stride <= 128)
    }

    @Test("missing measurements read back as nil and compare equal; given ones read back exactly")
    func missingIsNil() {
        let time = Date(timeIntervalSince1970: 1_714_546_800)
        var sample = RecordedSample(time: time, altitude: -0.0, heartRate: 151)
        #expect(sample.speed == nil && sample.power == nil && sample.hdop == nil)
        #expect(sample.altitude == 0 && sample.heartRate == 151)
        #expect(RecordedSample(time: time) == RecordedSample(time: time))
        #expect(sample != RecordedSample(time: time, altitude: -0.0))
        sample.heartRate = nil
        #expect(sample == RecordedSample(time: time, altitude: 0))
        sample.cadence = .greatestFiniteMagnitude
        #expect(sample.cadence == .greatestFiniteMagnitude)
    }
}
