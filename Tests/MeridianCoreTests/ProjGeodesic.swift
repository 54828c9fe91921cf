import CProj

/// PROJ's C geodesic routines (GeographicLib's C library, as linked by Meridian before), the reference for the checks.
final class ProjGeodesic: @unchecked Sendable {
    /// Heap-allocated once, so that calls pass a pointer and never copy the struct.
    let pointer: UnsafeMutablePointer<geod_geodesic>

    init(equatorialRadius: Double, flattening: Double) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: geod_geodesic())
        geod_init(pointer, equatorialRadius, flattening)
    }

    deinit { pointer.deallocate() }

    /// `geod_inverse` with all outputs: distance (m) and azimuths (degrees, -180...180).
    func inverse(
        _ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double
    ) -> (distance: Double, azimuth1: Double, azimuth2: Double) {
        var s12 = 0.0, azi1 = 0.0, azi2 = 0.0
        geod_inverse(pointer, lat1, lon1, lat2, lon2, &s12, &azi1, &azi2)
        return (s12, azi1, azi2)
    }

    /// `geod_direct`: latitude, longitude (-180...180) and azimuth at the end.
    func direct(
        _ lat1: Double, _ lon1: Double, _ azimuth1: Double, _ distance: Double
    ) -> (latitude: Double, longitude: Double, azimuth: Double) {
        var lat2 = 0.0, lon2 = 0.0, azi2 = 0.0
        geod_direct(pointer, lat1, lon1, azimuth1, distance, &lat2, &lon2, &azi2)
        return (lat2, lon2, azi2)
    }
}
