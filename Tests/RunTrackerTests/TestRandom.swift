import Foundation

extension RandomNumberGenerator {
    /// A normally distributed value with mean 0 (Box–Muller). Use with `MeridianCore.SeededRandom`, so every
    /// synthetic track is the same on every run.
    mutating func gaussian(sigma: Double) -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let u2 = Double.random(in: 0..<1, using: &self)
        return sigma * (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}
