import Foundation
import Testing

@testable import RunTracker

/// VDOT and race predictions against Daniels' published VDOT table, and Riegel's formula.
@Suite("VDOT and race predictions")
struct VdotTests {
    /// Race times (seconds) for 1,500 m, 5 km, 10 km, half marathon and marathon at VDOT 30, 40, 50, 60 and 70, from
    /// the VDOT table of Daniels' Running Formula (Table 3.1 in the book), as reproduced in
    /// https://reddit.birdcat.cafe/r/artc/comments/6tnemg/dissecting_daniels_part_4_fitness_benchmarks (VDOT 30–50,
    /// 5 km to marathon) and in the "Jack Daniels VDOT" table of https://gist.github.com/anartzdev/f8dc089091d7da98ca31c3a7caa91d04
    /// and a public C# VdotCalculator's VdotTable (all VDOTs and the 1,500 m):
    /// 30: 8:30, 30:40, 63:46, 2:21:04, 4:49:17    40: 6:35, 24:08, 50:03, 1:50:59, 3:49:45
    /// 50: 5:24, 19:57, 41:21, 1:31:35, 3:10:49    60: 4:35, 17:03, 35:22, 1:18:09, 2:43:25
    /// 70: 4:00, 14:55, 31:00, 1:08:21, 2:23:10
    static let distances = [1500.0, 5000, 10_000, 21_097.5, 42_195]
    static let table: [Double: [String]] = [
        30: ["8:30", "30:40", "1:03:46", "2:21:04", "4:49:17"],
        40: ["6:35", "24:08", "50:03", "1:50:59", "3:49:45"],
        50: ["5:24", "19:57", "41:21", "1:31:35", "3:10:49"],
        60: ["4:35", "17:03", "35:22", "1:18:09", "2:43:25"],
        70: ["4:00", "14:55", "31:00", "1:08:21", "2:23:10"]
    ]

    static func seconds(_ text: String) -> Double {
        text.split(separator: ":").reduce(0) { $0 * 60 + (Double($1) ?? .nan) }
    }

    @Test("predicted race times are within 1 % of Daniels' table at VDOT 30, 40, 50, 60 and 70")
    func againstTable() throws {
        for (vdot, times) in Self.table {
            for (distance, text) in zip(Self.distances, times) {
                let tabulated = Self.seconds(text)
                let predicted = try #require(DanielsGilbert.raceTime(distance: distance, vdot: vdot))
                #expect(
                    abs(predicted - tabulated) / tabulated < 0.01,
                    "VDOT \(vdot), \(distance) m: \(predicted) s, table \(tabulated) s")
                // And the other way: the table's time gives back its VDOT within 1 %.
                let back = try #require(DanielsGilbert.vdot(distance: distance, time: tabulated))
                #expect(abs(back - vdot) / vdot < 0.01, "\(distance) m in \(text): VDOT \(back)")
            }
        }
    }

    @Test("Riegel: t₂ = t₁ (d₂/d₁)^1.06")
    func riegel() {
        // 20:00 over 5 km → 10 km: 1200 × 2^1.06 = 2501.9 s; → half marathon: 1200 × 4.2195^1.06 = 5520.2 s.
        #expect(abs(Riegel.time(over: 10_000, from: 5000, time: 1200) - 1200 * pow(2, 1.06)) < 1e-9)
        #expect(abs(Riegel.time(over: 10_000, from: 5000, time: 1200) - 2501.9) < 0.1)
        #expect(abs(Riegel.time(over: 21_097.5, from: 5000, time: 1200) - 5520.2) < 0.1)
    }

    @Test(
        "threshold speed is the pace a runner of the VDOT holds for an hour: at VDOT 60 between the table's 10 km and half marathon paces"
    )
    func threshold() throws {
        let speed = try #require(DanielsGilbert.thresholdSpeed(vdot: 60))
        // Table, VDOT 60: 10 km in 35:22 (212.2 s/km), half marathon in 1:18:09 (222.3 s/km); the hour lies between.
        #expect((212.2...222.3).contains(1000 / speed), "\(1000 / speed) s/km")
        let hour = try #require(DanielsGilbert.vdot(distance: speed * 3600, time: 3600))
        #expect(abs(hour - 60) < 1e-6)
    }
}
