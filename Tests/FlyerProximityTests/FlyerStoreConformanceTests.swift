import FlyerProximity
import MeridianTesting
import Testing

/// Both backends run the flyer store conformance suite that ships in MeridianTesting.
@Suite("flyer store conformance")
struct FlyerStoreConformanceTests {
    @Test("each backend follows the FlyerStore rules", arguments: FlyerBackend.allCases)
    func conforms(_ backend: FlyerBackend) async throws {
        try await backend.withStore { store in
            let violations = try await FlyerStoreConformance(store: store).violations()
            #expect(violations.isEmpty, "\(backend): \(violations)")
        }
    }
}
