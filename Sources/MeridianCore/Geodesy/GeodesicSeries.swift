/// The series of Karney, "Algorithms for geodesics" (2013), to sixth order in ε (and in the third flattening n):
/// for the distance integral I₁ (eqs. 17, 18), its inverse (eq. 21), the reduced-length integral I₂ (eqs. 42, 43) and
/// the longitude integral I₃ (eqs. 24, 25). Each is evaluated in Horner form with integer coefficients over a common
/// denominator.
enum GeodesicSeries {
    /// A₁ - 1, with (1 - ε) A₁ = 1 + ε²/4 + ε⁴/64 + ε⁶/256.
    static func a1Minus1(_ eps: Double) -> Double {
        let eps2 = eps * eps
        let t = ((eps2 + 4) * eps2 + 64) * eps2 / 256
        return (t + eps) / (1 - eps)
    }

    /// C₁ₗ, the coefficients of I₁'s sine series.
    static func c1(_ eps: Double) -> SineSeries {
        let powers = Powers(eps)
        return SineSeries(
            powers.e1 * quadratic(-1, 6, -16, powers.e2) / 32,
            powers.e2 * quadratic(-9, 64, -128, powers.e2) / 2048,
            powers.e3 * linear(9, -16, powers.e2) / 768,
            powers.e4 * linear(3, -5, powers.e2) / 512,
            powers.e5 * -7 / 1280,
            powers.e6 * -7 / 2048)
    }

    /// C′₁ₗ, the coefficients of the series that inverts I₁ (σ from τ = s / (b A₁)).
    static func c1Prime(_ eps: Double) -> SineSeries {
        let powers = Powers(eps)
        return SineSeries(
            powers.e1 * quadratic(205, -432, 768, powers.e2) / 1536,
            powers.e2 * quadratic(4005, -4736, 3840, powers.e2) / 12288,
            powers.e3 * linear(-225, 116, powers.e2) / 384,
            powers.e4 * linear(-7173, 2695, powers.e2) / 7680,
            powers.e5 * 3467 / 7680,
            powers.e6 * 38081 / 61440)
    }

    /// A₂ - 1, with A₂ = (1 - 3ε²/4 - 7ε⁴/64 - 11ε⁶/256) / (1 + ε).
    static func a2Minus1(_ eps: Double) -> Double {
        let eps2 = eps * eps
        let t = ((-11 * eps2 - 28) * eps2 - 192) * eps2 / 256
        return (t - eps) / (1 + eps)
    }

    /// C₂ₗ, the coefficients of I₂'s sine series.
    static func c2(_ eps: Double) -> SineSeries {
        let powers = Powers(eps)
        return SineSeries(
            powers.e1 * quadratic(1, 2, 16, powers.e2) / 32,
            powers.e2 * quadratic(35, 64, 384, powers.e2) / 2048,
            powers.e3 * linear(15, 80, powers.e2) / 768,
            powers.e4 * linear(7, 35, powers.e2) / 512,
            powers.e5 * 63 / 1280,
            powers.e6 * 77 / 2048)
    }

    /// ε¹…ε⁶, each the previous times ε.
    private struct Powers {
        let e1, e2, e3, e4, e5, e6: Double

        init(_ eps: Double) {
            e1 = eps
            e2 = e1 * eps
            e3 = e2 * eps
            e4 = e3 * eps
            e5 = e4 * eps
            e6 = e5 * eps
        }
    }
}

/// The longitude integral I₃'s series (eqs. 24, 25): A₃ and C₃ₗ as polynomials in ε whose coefficients, polynomials in
/// n, are fixed by the ellipsoid.
struct LongitudeSeries: Sendable {
    /// A₃'s coefficients of ε⁵, ε⁴, …, ε¹ (that of ε⁰ is 1).
    private let a3: (Double, Double, Double, Double, Double)
    /// C₃₁'s coefficients of ε⁵ … ε¹, C₃₂'s of ε⁵ … ε², and so on to C₃₅'s of ε⁵.
    private let c31: (Double, Double, Double, Double, Double)
    private let c32: (Double, Double, Double, Double)
    private let c33: (Double, Double, Double)
    private let c34: (Double, Double)
    private let c35: Double

    init(thirdFlattening n: Double) {
        a3 = (
            -3.0 / 128, linear(-2, -3, n) / 64, quadratic(-1, -3, -1, n) / 16, quadratic(3, -1, -2, n) / 8,
            linear(1, -1, n) / 2
        )
        c31 = (
            3.0 / 128, linear(2, 5, n) / 128, quadratic(-1, 3, 3, n) / 64, quadratic(-1, 0, 1, n) / 8,
            linear(-1, 1, n) / 4
        )
        c32 = (5.0 / 256, linear(1, 3, n) / 128, quadratic(-3, -2, 3, n) / 64, quadratic(1, -3, 2, n) / 32)
        c33 = (7.0 / 512, linear(-10, 9, n) / 384, quadratic(5, -9, 5, n) / 192)
        c34 = (7.0 / 512, linear(-14, 7, n) / 512)
        c35 = 21.0 / 2560
    }

    /// A₃(ε).
    func a3(_ eps: Double) -> Double {
        ((((a3.0 * eps + a3.1) * eps + a3.2) * eps + a3.3) * eps + a3.4) * eps + 1
    }

    /// C₃₁(ε) … C₃₅(ε) (the sixth term is zero: its Clenshaw sum gives the five-term sum's bits exactly).
    func c3(_ eps: Double) -> SineSeries {
        let e2 = eps * eps
        let e3 = e2 * eps
        let e4 = e3 * eps
        return SineSeries(
            eps * ((((c31.0 * eps + c31.1) * eps + c31.2) * eps + c31.3) * eps + c31.4),
            e2 * (((c32.0 * eps + c32.1) * eps + c32.2) * eps + c32.3),
            e3 * ((c33.0 * eps + c33.1) * eps + c33.2),
            e4 * (c34.0 * eps + c34.1),
            e4 * eps * c35, 0)
    }
}

/// Σₗ cₗ sin 2lσ for l = 1…6.
struct SineSeries {
    let c1, c2, c3, c4, c5, c6: Double

    init(_ c1: Double, _ c2: Double, _ c3: Double, _ c4: Double, _ c5: Double, _ c6: Double) {
        (self.c1, self.c2, self.c3, self.c4, self.c5, self.c6) = (c1, c2, c3, c4, c5, c6)
    }

    /// The sum at σ given by sin σ and cos σ (Clenshaw summation).
    func sum(sin s: Double, cos c: Double) -> Double {
        let ar = 2 * (c - s) * (c + s)  // 2 cos 2σ
        var y1 = c6
        var y0 = ar * y1 + c5
        y1 = ar * y0 - y1 + c4
        y0 = ar * y1 - y0 + c3
        y1 = ar * y0 - y1 + c2
        y0 = ar * y1 - y0 + c1
        return 2 * s * c * y0
    }
}

/// a x + b.
private func linear(_ a: Double, _ b: Double, _ x: Double) -> Double { a * x + b }

/// (a x + b) x + c.
private func quadratic(_ a: Double, _ b: Double, _ c: Double, _ x: Double) -> Double { (a * x + b) * x + c }
