import Foundation

/// Daniels and Gilbert's running formulas (Daniels' Running Formula): the oxygen cost of running at a speed and the
/// fraction of VO₂max a runner can hold for a time; their ratio is the VDOT of a race.
package enum DanielsGilbert {
    /// Oxygen cost of running at `speed` (m/s), ml/kg/min: −4.60 + 0.182258 v + 0.000104 v², v in m/min.
    package static func oxygenCost(speed: Double) -> Double {
        let v = speed * 60
        return -4.60 + 0.182258 * v + 0.000104 * v * v
    }

    /// The fraction of VO₂max sustainable for `time` seconds:
    /// 0.8 + 0.1894393 e^(−0.012778 t) + 0.2989558 e^(−0.1932605 t), t in minutes.
    package static func sustainableFraction(time: Double) -> Double {
        let t = time / 60
        return 0.8 + 0.1894393 * exp(-0.012778 * t) + 0.2989558 * exp(-0.1932605 * t)
    }

    /// The VDOT of covering `distance` metres in `time` seconds, or `nil` when either is not positive.
    package static func vdot(distance: Double, time: Double) -> Double? {
        guard distance > 0, time > 0, distance.isFinite, time.isFinite else { return nil }
        return oxygenCost(speed: distance / time) / sustainableFraction(time: time)
    }

    /// The time (seconds) a runner of `vdot` needs for `distance` metres: the root of vdot(distance, t) = vdot,
    /// found by bisection (VDOT falls as the time grows).
    package static func raceTime(distance: Double, vdot: Double) -> Double? {
        guard distance > 0, vdot > 0 else { return nil }
        var fast = distance / 12.0  // 12 m/s: faster than any runner
        var slow = distance / 0.5  // 0.5 m/s: slower than any VDOT the formula is meant for
        guard let high = Self.vdot(distance: distance, time: fast), let low = Self.vdot(distance: distance, time: slow),
            high >= vdot, low <= vdot
        else { return nil }
        for _ in 0..<100 {
            let middle = (fast + slow) / 2
            guard let value = Self.vdot(distance: distance, time: middle) else { return nil }
            if value > vdot { fast = middle } else { slow = middle }
        }
        return (fast + slow) / 2
    }

    /// The speed (m/s) a runner of `vdot` can hold for one hour: Daniels' threshold (T) pace, about 88 % of VO₂max.
    package static func thresholdSpeed(vdot: Double) -> Double? {
        // One hour's oxygen uptake, and the speed whose cost it is (the root of the cost's quadratic, in m/min).
        let cost = vdot * sustainableFraction(time: 3600)
        let (a, b, c) = (0.000104, 0.182258, -4.60 - cost)
        let discriminant = b * b - 4 * a * c
        guard discriminant >= 0 else { return nil }
        let metresPerMinute = (-b + discriminant.squareRoot()) / (2 * a)
        return metresPerMinute > 0 ? metresPerMinute / 60 : nil
    }
}

/// Riegel's endurance model: t₂ = t₁ (d₂ / d₁)^1.06.
package enum Riegel {
    package static let exponent = 1.06

    /// The time over `distance` metres predicted from `time` seconds over `from` metres.
    package static func time(over distance: Double, from: Double, time: Double) -> Double {
        time * pow(distance / from, exponent)
    }
}
