extension Geodesic {
    /// s₁₂ / b along an arc σ₁ → σ₂ of parameter ε: I₁(σ₂) - I₁(σ₁) (eqs. 7, 15 of the paper).
    func distanceIntegral(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
    ) -> Double {
        let a1 = 1 + GeodesicSeries.a1Minus1(eps)
        let c1 = GeodesicSeries.c1(eps)
        let b1 = c1.sum(sin: ssig2, cos: csig2) - c1.sum(sin: ssig1, cos: csig1)
        return a1 * (sig12 + b1)
    }

    /// s₁₂ / b and the reduced length m₁₂ / b (eqs. 38–41), the latter through J₁₂ = I₁ - I₂ computed from the
    /// separate sums of both integrals.
    func distanceAndReducedLength(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double, ssig2: Double, csig2: Double,
        dn2: Double
    ) -> (s12b: Double, m12b: Double) {
        let series = LengthSeries(eps)
        let b1 = series.c1.sum(sin: ssig2, cos: csig2) - series.c1.sum(sin: ssig1, cos: csig1)
        let b2 = series.c2.sum(sin: ssig2, cos: csig2) - series.c2.sum(sin: ssig1, cos: csig1)
        let j12 = (series.a1m1 - series.a2m1) * sig12 + (series.a1 * b1 - series.a2 * b2)
        return (
            series.a1 * (sig12 + b1),
            reducedLength(j12: j12, ssig1: ssig1, csig1: csig1, dn1: dn1, ssig2: ssig2, csig2: csig2, dn2: dn2)
        )
    }

    /// The reduced length m₁₂ / b and m₀ = A₁ - A₂, with J₁₂ from a single sine series of combined coefficients
    /// A₁C₁ₗ - A₂C₂ₗ.
    func reducedLength(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double, ssig2: Double, csig2: Double,
        dn2: Double
    ) -> (m12b: Double, m0: Double) {
        let series = LengthSeries(eps)
        let (a1, c1, a2, c2) = (series.a1, series.c1, series.a2, series.c2)
        let m0 = series.a1m1 - series.a2m1
        let combined = SineSeries(
            a1 * c1.c1 - a2 * c2.c1, a1 * c1.c2 - a2 * c2.c2, a1 * c1.c3 - a2 * c2.c3, a1 * c1.c4 - a2 * c2.c4,
            a1 * c1.c5 - a2 * c2.c5, a1 * c1.c6 - a2 * c2.c6)
        let j12 = m0 * sig12 + (combined.sum(sin: ssig2, cos: csig2) - combined.sum(sin: ssig1, cos: csig1))
        return (
            reducedLength(j12: j12, ssig1: ssig1, csig1: csig1, dn1: dn1, ssig2: ssig2, csig2: csig2, dn2: dn2), m0
        )
    }

    /// m₁₂ / b = dn₂ cos σ₁ sin σ₂ - dn₁ sin σ₁ cos σ₂ - cos σ₁ cos σ₂ J₁₂, the products grouped so that coincident
    /// points cancel exactly.
    private func reducedLength(
        j12: Double, ssig1: Double, csig1: Double, dn1: Double, ssig2: Double, csig2: Double, dn2: Double
    ) -> Double {
        dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
    }
}

/// The distance (I₁) and reduced-length (I₂) integrals' series at ε: A₁ - 1, A₂ - 1 and their sine series.
private struct LengthSeries {
    let a1m1, a2m1: Double
    let c1, c2: SineSeries

    init(_ eps: Double) {
        a1m1 = GeodesicSeries.a1Minus1(eps)
        a2m1 = GeodesicSeries.a2Minus1(eps)
        c1 = GeodesicSeries.c1(eps)
        c2 = GeodesicSeries.c2(eps)
    }

    var a1: Double { 1 + a1m1 }
    var a2: Double { 1 + a2m1 }
}
