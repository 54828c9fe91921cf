import Foundation
import MeridianCore
import Synchronization

/// The payload of `flyer.enter` and `flyer.exit` events.
package struct FlyerEvent: Codable, Sendable, Equatable {
    package var flyerId: String
    package var title: String
    package var category: String?
    /// Distance from the fix to the flyer (0 inside an area), metres; absent when the flyer was deleted.
    package var distanceM: Double?
    /// The fix position.
    package var lat: Double
    package var lon: Double
    package var time: Date
    /// The device whose own fixes crossed the flyer's area (`fences: per-device` or `both`); absent for the
    /// fused position.
    package var device: String?
    /// The provider that delivered the device's fixes; absent for the fused position.
    package var provider: String?
}

/// Tracks which flyer areas the user (the fused position) or each device is in and announces changes.
///
/// A point flyer's area is the disc of its `radius_m`; an area flyer's is its polygons.
/// Re-evaluates only after moving `moveThreshold` metres; leaves an area only when
/// outside it by more than the fix's accuracy (at least 10 m), so noise does not flap.
///
/// Devices are told apart by their fixes' `providerID` (`<provider>` or `<provider>/<device>` for a provider
/// that stands for several, such as phones). A device that sends nothing for `forgetAfter` seconds is forgotten
/// (without exit events: where it went is unknown), and at most `mostDevices` are followed at once (the one
/// heard from longest ago is forgotten first), so the state stays bounded.
package final class ProximityWatcher: Sendable {
    private struct Fence {
        var lastEvaluated: Coordinate?
        var inside: Set<String> = []
        var lastHeard = Date.distantPast
    }

    private struct State {
        var fused = Fence()
        var devices: [String: Fence] = [:]
        var lastForgetting = Date.distantPast
    }

    private let source: any ProximitySource
    private let events: EventBus
    private let moveThreshold: Double
    private let forgetAfter: Double
    private let mostDevices: Int
    private let state = Mutex(State())
    /// The smallest exit margin, metres.
    package static let minimumHysteresis = 10.0

    package init(
        index: any ProximitySource, events: EventBus, moveThreshold: Double, forgetAfter: Double = 3600,
        mostDevices: Int = 10_000
    ) {
        source = index
        self.events = events
        self.moveThreshold = moveThreshold
        self.forgetAfter = forgetAfter
        self.mostDevices = mostDevices
    }

    /// Ids of the flyer areas the fused position is in now.
    package var inside: Set<String> { state.withLock { $0.fused.inside } }

    /// Ids of the flyer areas device `source` (a fix's `providerID`) is in now; nil when it is not followed.
    package func inside(device source: String) -> Set<String>? {
        state.withLock { $0.devices[source]?.inside }
    }

    /// The devices followed now.
    package var devices: Set<String> { state.withLock { Set($0.devices.keys) } }

    /// Handles one fused fix; `now` judges flyer validity.
    package func update(_ fix: Fix, now: Date = Date()) {
        evaluate(fix, now: now, device: nil)
    }

    /// Handles one fix of a device as its provider sent it (before fusion); `now` judges validity and when
    /// devices have gone quiet.
    package func update(device fix: Fix, now: Date = Date()) {
        let key = fix.providerID
        state.withLock { state in
            if now.timeIntervalSince(state.lastForgetting) >= min(60, forgetAfter) {
                state.lastForgetting = now
                state.devices = state.devices.filter { now.timeIntervalSince($0.value.lastHeard) < forgetAfter }
            }
            if state.devices[key] == nil, state.devices.count >= mostDevices,
                let oldest = state.devices.min(by: { $0.value.lastHeard < $1.value.lastHeard })?.key
            {
                state.devices[oldest] = nil
            }
            state.devices[key, default: Fence()].lastHeard = now
        }
        evaluate(fix, now: now, device: key)
    }

    /// Runs `body` on the fence of `device` (nil: the fused position) under the lock.
    private func withFence<T>(_ device: String?, _ body: (inout Fence) -> T) -> T {
        state.withLock { state in
            if let device { return body(&state.devices[device, default: Fence()]) }
            return body(&state.fused)
        }
    }

    private func evaluate(_ fix: Fix, now: Date, device: String?) {
        guard fix.hasPosition, let position = fix.coordinate else { return }
        let moved = withFence(device) { fence -> Bool in
            if let last = fence.lastEvaluated, Geodesic.wgs84.distance(last, position) < moveThreshold { return false }
            fence.lastEvaluated = position
            return true
        }
        guard moved else { return }
        let margin = max(Self.minimumHysteresis, fix.horizontalAccuracy.flatMap { $0.isFinite ? $0 : nil } ?? 0)
        let nearby: [NearbyMatch]
        do {
            nearby = try source.candidates(near: position, margin: margin, at: now)
        } catch {
            // Judged again at the next fix.
            withFence(device) { $0.lastEvaluated = nil }
            return
        }
        var entered: [NearbyMatch] = []
        var exited: [(id: String, match: NearbyMatch?)] = []
        withFence(device) { fence in
            var inside = fence.inside
            var seen = Set<String>()
            for match in nearby {
                let id = match.flyer.id
                seen.insert(id)
                let enterLimit = match.flyer.enterLimit
                if inside.contains(id) {
                    if match.distance > enterLimit + margin {
                        inside.remove(id)
                        exited.append((id, match))
                    }
                } else if match.distance <= enterLimit {
                    inside.insert(id)
                    entered.append(match)
                }
            }
            for id in inside.subtracting(seen).sorted() {
                inside.remove(id)
                exited.append((id, nil))
            }
            fence.inside = inside
        }
        // `<provider>/<device>` for a provider of several devices, else the provider is the device.
        let provider = device.map { String($0.prefix { $0 != "/" }) }
        let deviceName = device.map { name in name.contains("/") ? String(name.drop { $0 != "/" }.dropFirst()) : name }
        for match in entered {
            events.publish(
                "flyer.enter",
                FlyerEvent(
                    flyerId: match.flyer.id, title: match.flyer.title, category: match.flyer.category,
                    distanceM: match.distance, lat: position.latitude, lon: position.longitude,
                    time: fix.time, device: deviceName, provider: provider))
        }
        for (id, match) in exited {
            // Flyers no longer in the search (far away, expired or deleted) are measured directly.
            let flyer = match?.flyer ?? (try? source.flyer(id: id)) ?? nil
            events.publish(
                "flyer.exit",
                FlyerEvent(
                    flyerId: id, title: flyer?.title ?? id, category: flyer?.category,
                    distanceM: match?.distance ?? source.distance(id: id, from: position),
                    lat: position.latitude, lon: position.longitude, time: fix.time, device: deviceName,
                    provider: provider))
        }
    }
}
