import MeridianCore

extension RecordedSample {
    /// The sample as a fix: `altitude` taken as above mean sea level; the mode from the GPX `fix` when the file
    /// gives one, else 3D with an altitude, 2D without, and no fix without a position.
    public func fix(providerID: String) -> Fix {
        var mode: FixMode = coordinate == nil ? .noFix : (altitude != nil ? .threeD : .twoD)
        var quality: FixQuality?
        switch fix {
        case .none?: mode = .noFix
        case .twoD?: mode = .twoD
        case .threeD?: mode = .threeD
        case .dgps?: quality = .dgps
        case .pps?: quality = .pps
        case nil: break
        }
        return Fix(
            time: time, coordinate: coordinate, altitudeMSL: altitude, speed: speed, course: course,
            horizontalAccuracy: horizontalAccuracy, mode: mode, quality: quality, satellitesUsed: satellites,
            providerID: providerID)
    }

    /// A receiver's fix as a sample (receiver logs have no sensors).
    public init(_ fix: Fix) {
        self.init(
            time: fix.time, coordinate: fix.hasPosition ? fix.coordinate : nil, altitude: fix.altitude,
            speed: fix.speed, course: fix.course, horizontalAccuracy: fix.horizontalAccuracy,
            satellites: fix.satellitesUsed)
    }
}
