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
}

/// Tracks which flyer areas the user is in and announces changes.
///
/// A point flyer's area is the disc of its `radius_m`; an area flyer's is its polygons.
/// Re-evaluates only after moving `moveThreshold` metres; leaves an area only when
/// outside it by more than the fix's accuracy (at least 10 m), so noise does not flap.
package final class ProximityWatcher: Sendable {
    private struct State {
        var lastEvaluated: Coordinate?
        var inside: Set<String> = []
    }

    private let source: any ProximitySource
    private let events: EventBus
    private let moveThreshold: Double
    private let state = Mutex(State())
    /// The smallest exit margin, metres.
    package static let minimumHysteresis = 10.0

    package init(index: any ProximitySource, events: EventBus, moveThreshold: Double) {
        source = index
        self.events = events
        self.moveThreshold = moveThreshold
    }

    /// Ids of the flyer areas the user is in now.
    package var inside: Set<String> { state.withLock { $0.inside } }

    /// Handles one fix; `now` judges flyer validity.
    package func update(_ fix: Fix, now: Date = Date()) {
        guard fix.hasPosition, let position = fix.coordinate else { return }
        let moved = state.withLock { state -> Bool in
            if let last = state.lastEvaluated, Geodesic.wgs84.distance(last, position) < moveThreshold { return false }
            state.lastEvaluated = position
            return true
        }
        guard moved else { return }
        let margin = max(Self.minimumHysteresis, fix.horizontalAccuracy.flatMap { $0.isFinite ? $0 : nil } ?? 0)
        let nearby: [NearbyMatch]
        do {
            nearby = try source.candidates(near: position, margin: margin, at: now)
        } catch {
            // Judged again at the next fix.
            state.withLock { $0.lastEvaluated = nil }
            return
        }
        var entered: [NearbyMatch] = []
        var exited: [(id: String, match: NearbyMatch?)] = []
        state.withLock { state in
            var seen = Set<String>()
            for match in nearby {
                let id = match.flyer.id
                seen.insert(id)
                let enterLimit = match.flyer.enterLimit
                if state.inside.contains(id) {
                    if match.distance > enterLimit + margin {
                        state.inside.remove(id)
                        exited.append((id, match))
                    }
                } else if match.distance <= enterLimit {
                    state.inside.insert(id)
                    entered.append(match)
                }
            }
            for id in state.inside.subtracting(seen).sorted() {
                state.inside.remove(id)
                exited.append((id, nil))
            }
        }
        for match in entered {
            events.publish(
                "flyer.enter",
                FlyerEvent(
                    flyerId: match.flyer.id, title: match.flyer.title, category: match.flyer.category,
                    distanceM: match.distance, lat: position.latitude, lon: position.longitude,
                    time: fix.time))
        }
        for (id, match) in exited {
            // Flyers no longer in the search (far away, expired or deleted) are measured directly.
            let flyer = match?.flyer ?? (try? source.flyer(id: id)) ?? nil
            events.publish(
                "flyer.exit",
                FlyerEvent(
                    flyerId: id, title: flyer?.title ?? id, category: flyer?.category,
                    distanceM: match?.distance ?? source.distance(id: id, from: position),
                    lat: position.latitude, lon: position.longitude, time: fix.time))
        }
    }
}
