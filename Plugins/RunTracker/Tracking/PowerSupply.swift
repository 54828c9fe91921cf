import Foundation

/// Reads battery state from Linux sysfs (`<root>/*/capacity` and `status`).
///
/// The root is injectable so tests can use a fake folder. Machines without a
/// battery (no `capacity` file under any supply) are `normal`.
package struct PowerSupply: Sendable {
    /// Usually `/sys/class/power_supply`.
    package var root: URL

    package static let defaultRoot = "/sys/class/power_supply"

    package init(root: URL = URL(fileURLWithPath: PowerSupply.defaultRoot)) {
        self.root = root
    }

    /// What was read: the lowest battery capacity in percent and whether that battery is charging.
    package struct Reading: Sendable, Equatable {
        package var capacityPercent: Double?
        package var charging: Bool
        package var state: PowerState { PowerState(capacityPercent: capacityPercent, charging: charging) }
    }

    /// Reads every supply with a `capacity` file; unreadable entries are skipped.
    package func read() -> Reading {
        let supplies = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        var lowest: Reading?
        for name in supplies.sorted() {
            let folder = root.appendingPathComponent(name)
            guard let capacityText = Self.text(folder.appendingPathComponent("capacity")),
                let capacity = Double(capacityText), capacity.isFinite
            else { continue }
            let status = Self.text(folder.appendingPathComponent("status"))?.lowercased() ?? ""
            let reading = Reading(capacityPercent: capacity, charging: status == "charging" || status == "full")
            if lowest == nil || capacity < (lowest?.capacityPercent ?? .infinity) { lowest = reading }
        }
        return lowest ?? Reading(capacityPercent: nil, charging: false)
    }

    private static func text(_ url: URL) -> String? {
        guard let data = try? Data(contentsOf: url), data.count < 256 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
