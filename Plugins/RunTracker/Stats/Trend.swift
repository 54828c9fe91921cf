/// The least-squares line y = a + b·x through some points.
struct LeastSquaresLine: Sendable, Equatable {
    let slope: Double
    let meanX: Double
    let meanY: Double
    /// The spread of x: the mean squared distance from its mean.
    let varianceX: Double

    /// `nil` for fewer than two points or when every x is the same.
    init?<X: Collection, Y: Collection>(x: X, y: Y) where X.Element == Double, Y.Element == Double {
        let count = Double(min(x.count, y.count))
        guard count >= 2 else { return nil }
        let meanX = x.reduce(0, +) / count, meanY = y.reduce(0, +) / count
        var sxx = 0.0, sxy = 0.0
        for (x, y) in zip(x, y) {
            sxx += (x - meanX) * (x - meanX)
            sxy += (x - meanX) * (y - meanY)
        }
        guard sxx > 0 else { return nil }
        slope = sxy / sxx
        self.meanX = meanX
        self.meanY = meanY
        varianceX = sxx / count
    }

    func value(at x: Double) -> Double { meanY + slope * (x - meanX) }
}

/// A least-squares line through values per period: `{"periods", "slope_per_period", "first", "last"}` in the
/// unit of the values; `slope_per_period`, `first` and `last` (the line's value at the first and last period of
/// the fit) are `null` with fewer than two values.
struct TrendLine: Sendable, Equatable {
    /// How many periods the line is fitted through.
    var periods: Int
    var slope: Double?
    var first: Double?
    var last: Double?

    /// Fits `values` at positions `indices` (period numbers from 0).
    init(indices: [Double], values: [Double]) {
        periods = values.count
        guard let line = LeastSquaresLine(x: indices, y: values), let lowest = indices.min(),
            let highest = indices.max()
        else { return }
        slope = line.slope
        first = line.value(at: lowest)
        last = line.value(at: highest)
    }
}

/// The trend over the periods of a stats report. JSON keys (all numbers `null` with fewer than two periods):
/// `periods`, `distance_slope_m_per_period`, `distance_first_m`, `distance_last_m` (the fitted line of each
/// period's distance, empty periods included), `pace_periods`, `pace_slope_s_per_km_per_period`,
/// `pace_first_s_per_km`, `pace_last_s_per_km` (the fitted line of the average pace of the periods with a
/// distance; a negative slope is getting faster).
package struct StatsTrend: Sendable, Equatable, Encodable {
    var distance: TrendLine
    var pace: TrendLine

    enum CodingKeys: String, CodingKey {
        case periods
        case distanceSlope = "distanceSlopeMPerPeriod"
        case distanceFirst = "distanceFirstM"
        case distanceLast = "distanceLastM"
        case pacePeriods
        case paceSlope = "paceSlopeSPerKmPerPeriod"
        case paceFirst = "paceFirstSPerKm"
        case paceLast = "paceLastSPerKm"
    }

    /// The slope of distance per period (metres) and of pace per period (seconds per km), for text output.
    package var distanceSlope: Double? { distance.slope }
    package var paceSlope: Double? { pace.slope }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(distance.periods, forKey: .periods)
        try container.encode(distance.slope, forKey: .distanceSlope)
        try container.encode(distance.first, forKey: .distanceFirst)
        try container.encode(distance.last, forKey: .distanceLast)
        try container.encode(pace.periods, forKey: .pacePeriods)
        try container.encode(pace.slope, forKey: .paceSlope)
        try container.encode(pace.first, forKey: .paceFirst)
        try container.encode(pace.last, forKey: .paceLast)
    }
}
