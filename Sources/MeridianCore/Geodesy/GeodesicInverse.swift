#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Geodesic {
    // The tolerances of Karney's algorithms (GeographicLib's names).
    /// √(smallest normal double): the floor of cos β at the poles.
    static var tiny: Double { 0x1p-511 }
    /// The machine epsilon: Newton's method stops when λ₁₂ is this close.
    static var tol0: Double { 0x1p-52 }
    /// Where the astroid's y counts as zero.
    static var tol1: Double { 200 * tol0 }
    /// √tol0.
    static var tol2: Double { 0x1p-26 }
    /// Bisection stops when the bracket is narrower than this.
    static var tolb: Double { tol0 }
    /// How far past x = -1 the astroid's cut extends.
    static var xthresh: Double { 1000 * tol2 }
    /// Newton iterations before only bisecting.
    static var maxit1: Int { 20 }
    /// Iterations in all: enough bisections for full precision.
    static var maxit2: Int { maxit1 + Double.significandBitCount + 1 + 10 }

    /// The inverse problem's solution: the distance in metres and the azimuths as (sine, cosine) pairs.
    struct InverseSolution {
        var distance: Double
        var salp1, calp1, salp2, calp2: Double

        /// Azimuth at the start, degrees in -180...180.
        var initialAzimuth: Double { GeodesicAngles.atan2Degrees(salp1, calp1) }
        /// Azimuth at the end, degrees in -180...180.
        var finalAzimuth: Double { GeodesicAngles.atan2Degrees(salp2, calp2) }
    }

    /// The reduced latitudes β of the two points (after the inverse problem's symmetries are applied) and
    /// dn = √(1 + e′² sin²β).
    struct ReducedLatitudes {
        var sbet1, cbet1, dn1, sbet2, cbet2, dn2: Double
    }

    /// Karney's inverse solution (§4 of the paper): points are first brought to the canonical form
    /// 0 ≤ λ₁₂ ≤ 180°, φ₁ ≤ -0, φ₁ ≤ φ₂ ≤ -φ₁; meridional and equatorial geodesics are solved directly, short ones
    /// by the starting estimate, and the rest by Newton's method on the longitude equation, bracketed by bisection.
    func solveInverse(_ from: Coordinate, _ to: Coordinate) -> InverseSolution {
        var (lon12, lon12Error) = GeodesicAngles.difference(from.longitude, to.longitude)
        var lonSign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonSign
        lon12Error *= lonSign
        let lam12 = lon12 * GeodesicAngles.radiansPerDegree
        let (slam12, clam12) = GeodesicAngles.sinCos(degrees: lon12, error: lon12Error)
        let lon12Supplement = (180 - lon12) - lon12Error

        // Latitudes within a rounding error of the equator are taken to be on it.
        var lat1 = GeodesicAngles.rounded(from.latitude)
        var lat2 = GeodesicAngles.rounded(to.latitude)
        let swapped = abs(lat1) < abs(lat2)
        if swapped {
            lonSign = -lonSign
            swap(&lat1, &lat2)
        }
        let latSign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latSign
        lat2 *= latSign

        let points = reducedLatitudes(lat1, lat2)
        var solution =
            if let meridional = solveMeridional(points, isPolar: lat1 == -90, slam12: slam12, clam12: clam12) {
                meridional
            } else if points.sbet1 == 0 && (flattening <= 0 || lon12Supplement >= flattening * 180) {
                // Along the equator (on an oblate ellipsoid, unless the points are too nearly antipodal).
                InverseSolution(distance: equatorialRadius * lam12, salp1: 1, calp1: 0, salp2: 1, calp2: 0)
            } else {
                solveGeneral(points, lam12: lam12, slam12: slam12, clam12: clam12)
            }

        // Undo the symmetries.
        if swapped {
            swap(&solution.salp1, &solution.salp2)
            swap(&solution.calp1, &solution.calp2)
        }
        let swapSign: Double = swapped ? -1 : 1
        solution.salp1 *= swapSign * lonSign
        solution.calp1 *= swapSign * latSign
        solution.salp2 *= swapSign * lonSign
        solution.calp2 *= swapSign * latSign
        solution.distance = 0 + solution.distance  // -0 becomes 0
        return solution
    }

    /// sin β, cos β and dn of both points, with β exactly ±β₁ for the other point when |β₂| = |β₁| up to rounding.
    private func reducedLatitudes(_ lat1: Double, _ lat2: Double) -> ReducedLatitudes {
        let (sbet1, cbet1) = reducedLatitude(lat1)
        var (sbet2, cbet2) = reducedLatitude(lat2)
        // cos β₂ - cos β₁ (when cos β₁ < -sin β₁) or |sin β₂| + sin β₁ is the sensitive measure of |β₁| - |β₂|.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = Double(signOf: sbet2, magnitudeOf: sbet1) }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        return ReducedLatitudes(
            sbet1: sbet1, cbet1: cbet1, dn1: (1 + ep2 * (sbet1 * sbet1)).squareRoot(),
            sbet2: sbet2, cbet2: cbet2, dn2: (1 + ep2 * (sbet2 * sbet2)).squareRoot())
    }

    /// sin β and cos β of the reduced latitude, tan β = (1 - f) tan φ, with cos β ≥ `tiny` at the poles.
    func reducedLatitude(_ latitude: Double) -> (sin: Double, cos: Double) {
        let (sphi, cphi) = GeodesicAngles.sinCos(degrees: latitude)
        let (sbet, cbet) = GeodesicAngles.unitPair(f1 * sphi, cphi)
        return (sbet, max(Self.tiny, cbet))
    }

    /// The geodesic along the meridian through both points, if it is the shortest one (it is not when the points are
    /// on opposite meridians of a prolate ellipsoid and nearly antipodal).
    private func solveMeridional(
        _ p: ReducedLatitudes, isPolar: Bool, slam12: Double, clam12: Double
    ) -> InverseSolution? {
        guard isPolar || slam12 == 0 else { return nil }
        // Head towards the target longitude; arrive heading north. tan β = tan σ cos α.
        let (salp1, calp1) = (slam12, clam12)
        let (ssig1, csig1) = (p.sbet1, calp1 * p.cbet1)
        let (ssig2, csig2) = (p.sbet2, p.cbet2)
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
        var (s12b, m12b) = distanceAndReducedLength(
            eps: n, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: p.dn1, ssig2: ssig2, csig2: csig2, dn2: p.dn2)
        guard sig12 < 1 || m12b >= 0 else { return nil }
        // Zero-length geodesics, and short ones whose rounding made s12 or m12 negative.
        if sig12 < 3 * Self.tiny || (sig12 < Self.tol0 && (s12b < 0 || m12b < 0)) { s12b = 0 }
        return InverseSolution(distance: s12b * b, salp1: salp1, calp1: calp1, salp2: 0, calp2: 1)
    }

    /// Neither meridional nor equatorial: the starting estimate, refined by Newton's method unless the line is short.
    private func solveGeneral(
        _ p: ReducedLatitudes, lam12: Double, slam12: Double, clam12: Double
    ) -> InverseSolution {
        let start = inverseStart(p, lam12: lam12, slam12: slam12, clam12: clam12)
        var (salp1, calp1) = (start.salp1, start.calp1)
        if let short = start.shortLine {
            return InverseSolution(
                distance: short.sig12 * b * short.dnm, salp1: salp1, calp1: calp1, salp2: short.salp2,
                calp2: short.calp2)
        }

        // λ₁₂(α₁) - λ₁₂ has exactly one root in 0 < α₁ < π, with positive slope there: keep a bracket (α₁a, α₁b)
        // around it, and bisect it whenever a Newton step would leave it or the slope is not positive.
        var salp1a = Self.tiny, calp1a = 1.0, salp1b = Self.tiny, calp1b = -1.0
        var tripNewton = false, tripBisection = false
        var iteration = 0
        var lambda: LambdaEvaluation
        while true {
            lambda = lambda12(p, salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12)
            let v = lambda.error
            // Written to stop on NaN too.
            if tripBisection || !(abs(v) >= (tripNewton ? 8 : 1) * Self.tol0) || iteration == Self.maxit2 { break }
            if v > 0 && (iteration > Self.maxit1 || calp1 / salp1 > calp1b / salp1b) {
                (salp1b, calp1b) = (salp1, calp1)
            } else if v < 0 && (iteration > Self.maxit1 || calp1 / salp1 < calp1a / salp1a) {
                (salp1a, calp1a) = (salp1, calp1)
            }
            iteration += 1
            if iteration <= Self.maxit1 {
                let dv = lambda12Derivative(p, lambda)
                if dv > 0 {
                    let dalp1 = -v / dv
                    if abs(dalp1) < .pi {
                        let sdalp1 = sin(dalp1)
                        let cdalp1 = cos(dalp1)
                        let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                        if nsalp1 > 0 {
                            (salp1, calp1) = GeodesicAngles.unitPair(nsalp1, calp1 * cdalp1 - salp1 * sdalp1)
                            // Where the slope vanishes convergence is not quadratic: stop on ε rather than √ε.
                            tripNewton = abs(v) <= 16 * Self.tol0
                            continue
                        }
                    }
                }
            }
            (salp1, calp1) = GeodesicAngles.unitPair((salp1a + salp1b) / 2, (calp1a + calp1b) / 2)
            tripNewton = false
            tripBisection =
                abs(salp1a - salp1) + (calp1a - calp1) < Self.tolb || abs(salp1 - salp1b) + (calp1 - calp1b) < Self.tolb
        }
        let s12b = distanceIntegral(
            eps: lambda.eps, sig12: lambda.sig12, ssig1: lambda.ssig1, csig1: lambda.csig1, ssig2: lambda.ssig2,
            csig2: lambda.csig2)
        return InverseSolution(
            distance: s12b * b, salp1: salp1, calp1: calp1, salp2: lambda.salp2, calp2: lambda.calp2)
    }

    /// The geodesic leaving point 1 at azimuth α₁, up to its crossing of point 2's parallel.
    struct LambdaEvaluation {
        /// λ₁₂(α₁) minus the target longitude difference, radians.
        var error: Double
        var salp2, calp2: Double
        /// Arc length σ₁₂ on the auxiliary sphere, and σ at both ends.
        var sig12, ssig1, csig1, ssig2, csig2: Double
        var eps: Double
    }

    /// λ₁₂ as a function of α₁ (eqs. 5–10 and 23 of the paper), minus the target (sin, cos of) λ₁₂.
    private func lambda12(
        _ p: ReducedLatitudes, salp1: Double, calp1: Double, slam120: Double, clam120: Double
    ) -> LambdaEvaluation {
        // Break the degeneracy of the equatorial line (already handled unless nearly antipodal).
        let calp1 = p.sbet1 == 0 && calp1 == 0 ? -Self.tiny : calp1
        // sin α₀ = sin α₁ cos β₁; tan β₁ = tan σ₁ cos α₁; tan ω₁ = sin α₀ tan σ₁.
        let salp0 = salp1 * p.cbet1
        let calp0 = hypot(calp1, salp1 * p.sbet1)
        let (ssig1, csig1) = GeodesicAngles.unitPair(p.sbet1, calp1 * p.cbet1)
        let somg1 = salp0 * p.sbet1
        let comg1 = calp1 * p.cbet1
        // sin α₂ cos β₂ = sin α₀; cos α₂ ≥ 0, from cos²α₀ - sin²β₂ rearranged to keep precision, exactly |cos α₁|
        // when β₂ = -β₁.
        let salp2 = p.cbet2 != p.cbet1 ? salp0 / p.cbet2 : salp1
        let calp2: Double
        if p.cbet2 != p.cbet1 || abs(p.sbet2) != -p.sbet1 {
            let change =
                p.cbet1 < -p.sbet1
                ? (p.cbet2 - p.cbet1) * (p.cbet1 + p.cbet2) : (p.sbet1 - p.sbet2) * (p.sbet1 + p.sbet2)
            calp2 = ((calp1 * p.cbet1) * (calp1 * p.cbet1) + change).squareRoot() / p.cbet2
        } else {
            calp2 = abs(calp1)
        }
        let (ssig2, csig2) = GeodesicAngles.unitPair(p.sbet2, calp2 * p.cbet2)
        let somg2 = salp0 * p.sbet2
        let comg2 = calp2 * p.cbet2
        // σ₁₂ and ω₁₂ in 0...π.
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        // η = ω₁₂ - λ₁₂ (target)
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)
        let k2 = (calp0 * calp0) * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let c3 = i3.c3(eps)
        let b312 = c3.sum(sin: ssig2, cos: csig2) - c3.sum(sin: ssig1, cos: csig1)
        let domg12 = -flattening * i3.a3(eps) * salp0 * (sig12 + b312)
        return LambdaEvaluation(
            error: eta + domg12, salp2: salp2, calp2: calp2, sig12: sig12, ssig1: ssig1, csig1: csig1,
            ssig2: ssig2, csig2: csig2, eps: eps)
    }

    /// dλ₁₂/dα₁ (eq. 38 of the paper), from the reduced length.
    private func lambda12Derivative(_ p: ReducedLatitudes, _ lambda: LambdaEvaluation) -> Double {
        if lambda.calp2 == 0 { return -2 * f1 * p.dn1 / p.sbet1 }
        let m12b = reducedLength(
            eps: lambda.eps, sig12: lambda.sig12, ssig1: lambda.ssig1, csig1: lambda.csig1, dn1: p.dn1,
            ssig2: lambda.ssig2, csig2: lambda.csig2, dn2: p.dn2
        ).m12b
        return m12b * (f1 / (lambda.calp2 * p.cbet2))
    }
}
