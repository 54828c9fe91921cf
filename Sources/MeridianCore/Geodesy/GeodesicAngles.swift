#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Angle arithmetic in degrees for the geodesic solutions, careful to keep exact the values that are exact in degrees
/// (multiples of 90°, the sign of zeros) as Karney's algorithms require.
enum GeodesicAngles {
    static let radiansPerDegree = Double.pi / 180

    /// Error-free sum: `u + v` rounded, and the rounding error (Knuth's TwoSum).
    static func sumWithError(_ u: Double, _ v: Double) -> (sum: Double, error: Double) {
        let sum = u + v
        var up = sum - v
        var vpp = sum - up
        up -= u
        vpp -= v
        return (sum, sum != 0 ? 0 - (up + vpp) : sum)
    }

    /// Rounds magnitudes below 1/16 to multiples of 2⁻⁵⁷ (the bits that `1/16 - |x|` keeps), so that values a
    /// rounding error away from 0 become 0.
    static func rounded(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        let w = z - y
        y = w > 0 ? z - w : y
        return Double(signOf: x, magnitudeOf: y)
    }

    /// The IEEE remainder of `x` by 360, in -180...180, without the library call when `x` is already in range (where
    /// it is `x` itself).
    private static func remainder360(_ x: Double) -> Double {
        abs(x) <= 180 ? x : x.remainder(dividingBy: 360)
    }

    /// `x` reduced to -180...180; ±180 keeps the sign of `x`.
    static func normalized(_ x: Double) -> Double {
        let y = remainder360(x)
        return abs(y) == 180 ? Double(signOf: x, magnitudeOf: 180) : y
    }

    /// `y - x` reduced to -180...180, and the rounding error of that difference (`difference + error` is exact).
    static func difference(_ x: Double, _ y: Double) -> (difference: Double, error: Double) {
        let first = sumWithError(remainder360(-x), remainder360(y))
        var (difference, error) = sumWithError(remainder360(first.sum), first.error)
        if difference == 0 || abs(difference) == 180 {
            difference = Double(signOf: error == 0 ? y - x : -error, magnitudeOf: difference)
        }
        return (difference, error)
    }

    /// Sine and cosine of `degrees` (in -225...225), exact at multiples of 90°.
    static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        let (quarters, remainder) = quarterTurns(degrees)
        return sinCos(quarters: quarters, remainder: remainder, sign: degrees)
    }

    /// Sine and cosine of `degrees + error` (`degrees` in -225...225, `error` tiny), with the sum rounded as
    /// `rounded` does.
    static func sinCos(degrees: Double, error: Double) -> (sin: Double, cos: Double) {
        let (quarters, remainder) = quarterTurns(degrees)
        return sinCos(quarters: quarters, remainder: rounded(remainder + error), sign: degrees)
    }

    /// `degrees = 90 · quarters + remainder` with |remainder| ≤ 45, exactly, ties to an even number of quarters (as
    /// C's `remquo(degrees, 90)` for |degrees| ≤ 225; each subtraction is exact by Sterbenz's lemma).
    private static func quarterTurns(_ degrees: Double) -> (quarters: Int, remainder: Double) {
        let magnitude = abs(degrees)
        let quarters: Int
        let remainder: Double
        if magnitude <= 45 {
            (quarters, remainder) = (0, magnitude)
        } else if magnitude < 135 {
            (quarters, remainder) = (1, magnitude - 90)
        } else {
            (quarters, remainder) = (2, magnitude - 180)
        }
        return degrees.sign == .minus ? (-quarters, -remainder) : (quarters, remainder)
    }

    private static func sinCos(quarters: Int, remainder: Double, sign: Double) -> (sin: Double, cos: Double) {
        let radians = remainder * radiansPerDegree
        let s = sin(radians)
        let c = cos(radians)
        var result: (sin: Double, cos: Double)
        switch quarters & 3 {
        case 0: result = (s, c)
        case 1: result = (c, -s)
        case 2: result = (-s, -c)
        default: result = (-c, s)
        }
        result.cos += 0  // cos is never -0
        if result.sin == 0 { result.sin = Double(signOf: sign, magnitudeOf: 0) }
        return result
    }

    /// `atan2(y, x)` in degrees, in -180...180, exact when the answer is a multiple of 45°.
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        var (y, x) = (y, x)
        var quadrant = 0
        if abs(y) > abs(x) {
            swap(&x, &y)
            quadrant = 2
        }
        if x.sign == .minus {
            x = -x
            quadrant += 1
        }
        // Here |y| ≤ x, so the angle is in -45...45.
        let angle = atan2(y, x) / radiansPerDegree
        switch quadrant {
        case 1: return Double(signOf: y, magnitudeOf: 180) - angle
        case 2: return 90 - angle
        case 3: return -90 + angle
        default: return angle
        }
    }

    /// (sin, cos) scaled to unit length.
    static func unitPair(_ sine: Double, _ cosine: Double) -> (sin: Double, cos: Double) {
        let r = hypot(sine, cosine)
        return (sine / r, cosine / r)
    }
}
