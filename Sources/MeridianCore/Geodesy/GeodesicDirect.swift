#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Geodesic {
    /// Karney's direct solution (§3 of the paper): the end of the geodesic of length `distance` metres leaving `start`
    /// at `azimuth` degrees. The latitude is in -90...90, the longitude and azimuth in -180...180.
    func solveDirect(
        _ start: Coordinate, azimuth: Double, distance: Double
    ) -> (latitude: Double, longitude: Double, azimuth: Double) {
        let (salp1, calp1) = GeodesicAngles.sinCos(
            degrees: GeodesicAngles.rounded(GeodesicAngles.normalized(azimuth)))
        let (sbet1, cbet1) = reducedLatitude(GeodesicAngles.rounded(start.latitude))
        // α₀, the azimuth at the northward equator crossing: sin α₀ = sin α₁ cos β₁ (α₀ in 0...π/2 - |β₁|).
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        // σ₁ from tan β₁ = tan σ₁ cos α₁ (σ = 0 at that crossing), ω₁ from tan ω₁ = sin α₀ tan σ₁.
        let somg1 = salp0 * sbet1
        let comg1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        let (ssig1, csig1) = GeodesicAngles.unitPair(sbet1, comg1)

        let k2 = (calp0 * calp0) * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let a1m1 = GeodesicSeries.a1Minus1(eps)
        let c1 = GeodesicSeries.c1(eps)
        let b11 = c1.sum(sin: ssig1, cos: csig1)
        // τ₁ = σ₁ + B₁₁
        let (sb11, cb11) = (sin(b11), cos(b11))
        let stau1 = ssig1 * cb11 + csig1 * sb11
        let ctau1 = csig1 * cb11 - ssig1 * sb11

        // σ₁₂ from τ₁₂ = s₁₂ / (b A₁) through the reverted series (eq. 20).
        let tau12 = distance / (b * (1 + a1m1))
        let (stau12, ctau12) = (sin(tau12), cos(tau12))
        let b12 = -GeodesicSeries.c1Prime(eps).sum(
            sin: stau1 * ctau12 + ctau1 * stau12, cos: ctau1 * ctau12 - stau1 * stau12)
        var sig12 = tau12 - (b12 - b11)
        var ssig12 = sin(sig12)
        var csig12 = cos(sig12)
        if abs(flattening) > 0.01 {
            // The reverted series loses accuracy for |f| > 1/100: one Newton step on I₁(σ₂) = τ₂.
            let ssig2 = ssig1 * csig12 + csig1 * ssig12
            let csig2 = csig1 * csig12 - ssig1 * ssig12
            let b12 = c1.sum(sin: ssig2, cos: csig2)
            let serr = (1 + a1m1) * (sig12 + (b12 - b11)) - distance / b
            sig12 -= serr / (1 + k2 * (ssig2 * ssig2)).squareRoot()
            ssig12 = sin(sig12)
            csig12 = cos(sig12)
        }

        // σ₂ = σ₁ + σ₁₂; sin β₂ = cos α₀ sin σ₂; tan α₂ = tan α₀ / cos σ₂.
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        let sbet2 = calp0 * ssig2
        var cbet2 = hypot(salp0, calp0 * csig2)
        if cbet2 == 0 {
            // Only for sin α₀ = 0 and cos σ₂ = 0 (a pole): break the degeneracy.
            cbet2 = Self.tiny
            csig2 = Self.tiny
        }
        let salp2 = salp0
        let calp2 = calp0 * csig2

        // λ₁₂ = ω₁₂ - f sin α₀ A₃ (σ₁₂ + B₃₂ - B₃₁), with tan ω₂ = sin α₀ tan σ₂.
        let somg2 = salp0 * ssig2
        let comg2 = csig2
        let omg12 = atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let c3 = i3.c3(eps)
        let a3c = -flattening * salp0 * i3.a3(eps)
        let lam12 = omg12 + a3c * (sig12 + (c3.sum(sin: ssig2, cos: csig2) - c3.sum(sin: ssig1, cos: csig1)))
        let lon12 = lam12 / GeodesicAngles.radiansPerDegree
        return (
            GeodesicAngles.atan2Degrees(sbet2, f1 * cbet2),
            GeodesicAngles.normalized(GeodesicAngles.normalized(start.longitude) + GeodesicAngles.normalized(lon12)),
            GeodesicAngles.atan2Degrees(salp2, calp2)
        )
    }
}
