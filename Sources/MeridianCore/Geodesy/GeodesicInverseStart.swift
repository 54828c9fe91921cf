#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Geodesic {
    /// The starting estimate of α₁ for Newton's method, and for short lines the solution itself.
    struct InverseStart {
        var salp1, calp1: Double
        /// Set when the line is so short that the estimate is the solution: σ₁₂ on the auxiliary sphere scaled by
        /// `dnm`, and α₂.
        var shortLine: (sig12: Double, salp2: Double, calp2: Double, dnm: Double)?
    }

    /// α₁ from the great circle on a sphere of the mean radius of curvature (short lines, §5 of the paper), the
    /// auxiliary sphere (§4), or, for nearly antipodal points, the astroid approximation (§5, eqs. 53–57).
    func inverseStart(_ p: ReducedLatitudes, lam12: Double, slam12: Double, clam12: Double) -> InverseStart {
        // β₁₂ = β₂ - β₁ in 0...π, and β₁₂a = β₂ + β₁ in -π...0.
        let sbet12 = p.sbet2 * p.cbet1 - p.cbet2 * p.sbet1
        let cbet12 = p.cbet2 * p.cbet1 + p.sbet2 * p.sbet1
        let sbet12a = p.sbet2 * p.cbet1 + p.cbet2 * p.sbet1
        let isShort = cbet12 >= 0 && sbet12 < 0.5 && p.cbet2 * lam12 < 0.5
        var somg12: Double
        var comg12: Double
        var dnm = 0.0
        if isShort {
            // sin²((β₁ + β₂) / 2)
            var sbetm2 = (p.sbet1 + p.sbet2) * (p.sbet1 + p.sbet2)
            sbetm2 /= sbetm2 + (p.cbet1 + p.cbet2) * (p.cbet1 + p.cbet2)
            dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            (somg12, comg12) = (slam12, clam12)
        }

        var salp1 = p.cbet2 * somg12
        var calp1 =
            comg12 >= 0
            ? sbet12 + p.cbet2 * p.sbet1 * (somg12 * somg12) / (1 + comg12)
            : sbet12a - p.cbet2 * p.sbet1 * (somg12 * somg12) / (1 - comg12)
        let ssig12 = hypot(salp1, calp1)
        let csig12 = p.sbet1 * p.sbet2 + p.cbet1 * p.cbet2 * comg12

        var shortLine: (sig12: Double, salp2: Double, calp2: Double, dnm: Double)?
        if isShort && ssig12 < etol2 {
            let (salp2, calp2) = GeodesicAngles.unitPair(
                p.cbet1 * somg12,
                sbet12 - p.cbet1 * p.sbet2 * (comg12 >= 0 ? (somg12 * somg12) / (1 + comg12) : 1 - comg12))
            shortLine = (atan2(ssig12, csig12), salp2, calp2, dnm)
        } else if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * (p.cbet1 * p.cbet1) {
            // The spherical estimate will do (no astroid for very eccentric ellipsoids).
        } else {
            (salp1, calp1) = nearlyAntipodalStart(p, sbet12a: sbet12a, slam12: slam12, clam12: clam12)
        }
        // Also lets NaN through to the normalisation.
        if !(salp1 <= 0) {
            (salp1, calp1) = GeodesicAngles.unitPair(salp1, calp1)
        } else {
            (salp1, calp1) = (1, 0)
        }
        return InverseStart(salp1: salp1, calp1: calp1, shortLine: shortLine)
    }

    /// α₁ (unnormalised) for nearly antipodal points, in scaled coordinates (x, y) where the antipode is the origin
    /// and the singular point is (-1, 0).
    private func nearlyAntipodalStart(
        _ p: ReducedLatitudes, sbet12a: Double, slam12: Double, clam12: Double
    ) -> (sin: Double, cos: Double) {
        let lam12x = atan2(-slam12, -clam12)  // λ₁₂ - π
        let x: Double
        let y: Double
        let lamscale: Double
        if flattening >= 0 {
            // x along longitude, y along latitude.
            let k2 = (p.sbet1 * p.sbet1) * ep2
            let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            lamscale = flattening * p.cbet1 * i3.a3(eps) * .pi
            let betscale = lamscale * p.cbet1
            x = lam12x / lamscale
            y = sbet12a / betscale
        } else {
            // x along latitude, y along longitude.
            let cbet12a = p.cbet2 * p.cbet1 - p.sbet2 * p.sbet1
            let bet12a = atan2(sbet12a, cbet12a)
            let (m12b, m0) = reducedLength(
                eps: n, sig12: .pi + bet12a, ssig1: p.sbet1, csig1: -p.cbet1, dn1: p.dn1, ssig2: p.sbet2,
                csig2: p.cbet2, dn2: p.dn2)
            x = -1 + m12b / (p.cbet1 * p.cbet2 * m0 * .pi)
            let betscale = x < -0.01 ? sbet12a / x : -flattening * (p.cbet1 * p.cbet1) * .pi
            lamscale = betscale / p.cbet1
            y = lam12x / lamscale
        }

        if y > -Self.tol1 && x > -1 - Self.xthresh {
            // Strip near the cut.
            if flattening >= 0 {
                let salp1 = min(1, -x)
                return (salp1, -(1 - salp1 * salp1).squareRoot())
            }
            let calp1 = max(x > -Self.tol1 ? 0 : -1, x)
            return ((1 - calp1 * calp1).squareRoot(), calp1)
        }
        // The astroid's root gives ω₁₂, from which the spherical estimate is updated.
        let k = Self.astroid(x, y)
        let omg12a = lamscale * (flattening >= 0 ? -x * k / (1 + k) : -y * (1 + k) / k)
        let somg12 = sin(omg12a)
        let comg12 = -cos(omg12a)
        return (p.cbet2 * somg12, sbet12a - p.cbet2 * p.sbet1 * (somg12 * somg12) / (1 - comg12))
    }

    /// The positive root k of k⁴ + 2k³ - (x² + y² - 1)k² - 2y²k - y² = 0 (eq. 55 of the paper), solved so as to avoid
    /// cancellation; 0 when y = 0 and |x| ≤ 1.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x
        let q = y * y
        let r = (p + q - 1) / 6
        if q == 0 && r <= 0 { return 0 }
        let s = p * q / 4  // r³ s in the paper's terms
        let r2 = r * r
        let r3 = r * r2
        // The discriminant of the quadratic for T³; zero on the evolute p^⅓ + q^⅓ = 1.
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            // The sign of the root that maximises |T³| avoids cancellation.
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
            let t = cbrt(t3)  // real root
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            // T is complex but u is real; take the cube root that avoids cancellation.
            let angle = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v  // u + v > 0, without cancellation
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }
}
