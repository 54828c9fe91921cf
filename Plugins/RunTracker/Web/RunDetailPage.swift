import Foundation
import GRDB
import Hummingbird
import MeridianCore
import MeridianStore
import MeridianWeb

/// `/runs/{id}`: one run. Its totals (Meridian's beside the device's for an imported device file), the route on
/// a map coloured by pace, elevation, pace and heart-rate charts along the distance, splits, data quality, the
/// name and notes form, exports and delete. One read of the run's points; everything else is computed from them.
package struct RunDetailPage: Sendable {
    let store: Store
    let site: WebSite
    /// What the run's training load is computed with.
    var training = TrainingSettings()
    /// The admin setting `privacy.pages_show_zones`: the map shows the whole route, privacy zones included.
    var showsZones = false

    package init(store: Store, site: WebSite) {
        self.store = store
        self.site = site
    }

    init(history: RunHistory, site: WebSite) {
        self.init(store: history.store, site: site)
        training = history.training
    }

    func response(id: String, request: Request) async throws -> Response {
        let parameters = request.uri.queryParameters
        return try await page(id: id, saved: parameters["saved"] != nil, restored: parameters["restored"] != nil)
    }

    /// The whole page of run `id` (404 or 410 as `APIError`s for unknown and deleted runs).
    package func page(id: String, saved: Bool = false, restored: Bool = false) async throws -> Response {
        let (run, points, records, laps, gear) = try await RunHistoryRoutes.mapped {
            try await store.database.read { db in
                let run = try RunHistory.liveRun(db, id: id)
                return (
                    run, try RunPoints.load(db, runID: id), try RecordBook.setBy(runID: id, in: db),
                    try RunLaps.load(db, runID: id), try GearBook.ofRun(db, run: run)
                )
            }
        }
        let load = try await TrainingBook.load(of: id, settings: training, in: store.database)
        let cut = try await RunHistory(store: store).privacyZones(keepPrivate: showsZones).cut(points)
        var model = try RunDetailModel(
            run: run, points: points, records: records, site: site, cut: cut, maxHeartRate: training.maxHeartRate)
        if let load { model.details.append(.init(label: "Training load", value: TrainingText.load(load))) }
        model.show(
            laps: RunLap.list(laps, runStart: run.startedAt), gear: gear, activity: run.activity, units: site.units)
        model.saved = saved
        model.restored = restored
        return try site.page(title: run.name, body: RunTemplates.set.render("run", model), path: "/runs/\(id)")
    }
}

/// What the run page shows, computed from the run and its points.
struct RunDetailModel {
    var name, notes, activity, date: String
    var hasNotes: Bool
    var device: String?
    var saved = false
    var restored = false
    var hasRecords: Bool
    var recordList: String
    var headline: [Stat]
    var details: [Stat]
    var leaflet: Bool
    var mapData: String
    var pictureURL: String
    var fast, slow: String
    var charts: [Chart]
    var hasCharts: Bool
    var splitUnit: String
    var splitPaceLabel: String
    var splits: [SplitRow]
    var hasSplits: Bool
    var splitHeartRate: Bool
    /// The time in each heart-rate zone, and the maximum heart rate they are of ("185 bpm"); `nil` without heart rate.
    var zones: [HeartRateZones.Row]
    var zonesMax: String?
    var laps: [LapTable.Row] = []
    var hasLaps = false
    var lapHeartRate = false
    var lapTrigger = false
    /// The run's gear and, when this run took it past its retirement distance, a notice saying so.
    var gear: String?
    var gearNotice: String?
    var quality: [Stat]
    var deviceName: String
    var comparison: [ComparisonRow]
    var hasComparison: Bool
    var editAction, deleteAction: String
    var exports: [Export]

    struct Stat {
        var label, value: String
    }

    struct Chart {
        var title, svg: String
    }

    struct SplitRow {
        var label, pace, heartRate, relative: String
        var fastest: Bool
    }

    struct ComparisonRow {
        var what, ours, theirs, difference: String
    }

    struct Export {
        var label, href: String
    }

    /// The model of the page; the map leaves out what `cut` hides; the heart-rate zones are of `maxHeartRate` (bpm).
    init(
        run: RunSummary, points: [TrackPoint], records: [PersonalRecord], site: WebSite, cut: PrivacyCut? = nil,
        maxHeartRate: Double = TrainingSettings().maxHeartRate
    ) throws {
        let units = site.units
        let figures = RunFigures(units: units)
        let analysis = RunAnalysis(
            points: points, start: run.startedAt, activity: run.activity, maxPoints: .max, maxHeartRate: maxHeartRate)
        name = run.name
        notes = run.notes
        hasNotes = !run.notes.isEmpty
        activity = RunFigures.label(run.activity)
        date =
            "\(site.format.day(run.startedAt)) · \(site.format.time(run.startedAt)) \(site.format.zoneName(at: run.startedAt))"
        device = run.device?.name
        hasRecords = !records.isEmpty
        recordList = records.sorted { $0.distance < $1.distance }
            .map { "\($0.distance.label) in \(figures.duration($0.elapsedTime))" }.joined(separator: " · ")

        let speed = figures.paceOrSpeed(run)
        headline = [
            Stat(label: "Distance", value: figures.distance(run.distance)),
            Stat(label: "Time", value: figures.duration(run.timerTime)),
            Stat(label: speed.label, value: speed.value)
        ]
        var details = [
            Stat(label: "Elapsed", value: figures.duration(run.elapsedTime)),
            Stat(label: "Moving", value: figures.duration(run.movingTime)),
            Stat(label: "Climb", value: "↑ \(ElevationText.string(metres: run.ascent, units: units))"),
            Stat(label: "Descent", value: "↓ \(ElevationText.string(metres: run.descent, units: units))"),
            Stat(label: "Max speed", value: figures.speed(run.maxSpeed))
        ]
        if let heartRate = run.averageHeartRate {
            details.append(
                Stat(
                    label: "Heart rate",
                    value: "\(Int(heartRate.rounded())) bpm"
                        + (run.maxHeartRate.map { " (max \(Int($0.rounded())))" } ?? "")))
        }
        if let cadence = run.averageCadence {
            details.append(
                Stat(label: "Cadence", value: "\(Int(cadence.rounded())) \(run.activity.countsSteps ? "spm" : "rpm")"))
        }
        if let power = run.averagePower { details.append(Stat(label: "Power", value: "\(Int(power.rounded())) W")) }
        self.details = details

        leaflet = site.leafletAvailable
        let path = RunLinks.run(run.id)
        pictureURL = "\(path)/route.svg"
        mapData =
            leaflet
            ? site.mapData(
                RunRouteMap.view(points: points, profile: analysis.profile, units: units, cut: cut), id: "route-data")
            : ""
        let colours = PaceColours(profile: analysis.profile)
        fast = PaceOrSpeed.text(secondsPerKilometre: colours.fast, activity: run.activity, units: units)
        slow = PaceOrSpeed.text(secondsPerKilometre: colours.slow, activity: run.activity, units: units)

        let chart = DistanceChart(
            total: analysis.profile.samples.last.map { $0.distance + analysis.profile.sliceLength / 2 } ?? 0,
            units: units, fontSize: 15)
        var charts: [Chart] = []
        if let elevation = DistanceChart.elevation(analysis.profile, units: units) {
            charts.append(
                Chart(title: "Elevation", svg: chart.standalone([elevation], title: "Elevation along the run")))
        }
        let paceLabel = PaceOrSpeed.label(run.activity).capitalized
        if let pace = DistanceChart.pace(analysis.profile, activity: run.activity, units: units, smoothing: 2) {
            charts.append(
                Chart(
                    title: "\(paceLabel) (faster is higher)",
                    svg: chart.standalone([pace], title: "\(paceLabel) along the run")))
        }
        if let heartRate = Self.heartRate(points: points, sliceLength: analysis.profile.sliceLength) {
            charts.append(
                Chart(title: "Heart rate", svg: chart.standalone([heartRate], title: "Heart rate along the run")))
        }
        self.charts = charts
        hasCharts = !charts.isEmpty

        let table = analysis.splits.first { $0.unit == (units == .metric ? "km" : "mile") }
        let splits = table?.splits ?? []
        let fastestPace = splits.filter { !$0.partial }.map(\.pace).min() ?? splits.map(\.pace).min() ?? 1
        splitUnit = units == .metric ? "km" : "Mile"
        splitPaceLabel = paceLabel
        self.splits = splits.map { split in
            let unitLength = table?.unitDistance ?? 1000
            return SplitRow(
                label: split.partial
                    ? "+\(NumberText.fixed(split.distance / unitLength, decimals: 2))" : "\(split.index)",
                pace: PaceOrSpeed.text(secondsPerKilometre: split.pace, activity: run.activity, units: units),
                heartRate: split.averageHeartRate.map { "\(Int($0.rounded())) bpm" } ?? "–",
                relative: NumberText.fixed(split.pace > 0 ? min(1, fastestPace / split.pace) : 0, decimals: 3),
                fastest: table?.fastest == split.index && splits.count > 1)
        }
        hasSplits = !splits.isEmpty
        splitHeartRate = splits.contains { $0.averageHeartRate != nil }
        zonesMax = analysis.heartRateZones.map { "\(Int($0.maxHeartRate.rounded())) bpm" }
        zones = analysis.heartRateZones?.rows ?? []

        quality = Self.quality(analysis.quality, units: units)
        deviceName = run.device?.name ?? "the device"
        comparison = Self.comparison(run, units: units)
        hasComparison = !comparison.isEmpty
        editAction = "\(path)/edit"
        deleteAction = "\(path)/delete"
        exports = ExportFormat.allCases.map { format in
            Export(
                label: format.fileExtension.uppercased(),
                href: "/v1/runs/\(PercentEncoding.pathSegment(run.id)).\(format.fileExtension)")
        }
    }

    /// Adds the run's laps and gear.
    mutating func show(laps: [RunLap], gear: RunGear?, activity: Activity, units: UnitSystem) {
        let table = LapTable(laps, activity: activity, units: units)
        self.laps = table.rows
        hasLaps = !table.rows.isEmpty
        lapHeartRate = table.heartRate
        lapTrigger = table.trigger
        guard let gear else { return }
        // The notice says when this run took the item past its retirement distance; the line need not.
        self.gear = gear.passedRetirement ? gear.summary(units: units) : gear.text(units: units)
        if gear.passedRetirement, let retire = gear.gear.retireDistanceM {
            gearNotice =
                "This run took \(gear.gear.name) past its retirement distance of "
                + "\(DistanceFormat.string(metres: retire, units: units)): it has done "
                + "\(DistanceFormat.string(metres: gear.distanceAfterM, units: units))."
        }
    }

    /// Heart rate per slice of distance (the profile's slices), from the accepted points that carry one.
    static func heartRate(points: [TrackPoint], sliceLength: Double) -> DistanceChart.Series? {
        guard sliceLength > 0 else { return nil }
        var sums: [Int: (Double, Int)] = [:]
        for point in points where point.isAccepted {
            guard let value = point.sensors.heartRate, let distance = point.distance else { continue }
            let slice = Int(distance / sliceLength)
            let sum = sums[slice] ?? (0, 0)
            sums[slice] = (sum.0 + value, sum.1 + 1)
        }
        let samples = sums.keys.sorted().compactMap { slice in
            sums[slice].map { (distance: (Double(slice) + 0.5) * sliceLength, value: $0.0 / Double($0.1)) }
        }
        guard samples.count > 1, let low = samples.map(\.value).min(), let high = samples.map(\.value).max() else {
            return nil
        }
        return DistanceChart.Series(
            samples: samples, low: low - 5, high: high + 5, style: .line(stroke: "#c0392b", width: 1.8),
            caption: "\(Int(low.rounded()))–\(Int(high.rounded())) bpm", captionColour: "#a93226")
    }

    static func quality(_ quality: DataQuality, units: UnitSystem) -> [Stat] {
        let total = max(1, quality.received)
        let levels = ["good", "fair", "poor", "unusable", "unknown"].compactMap { level -> String? in
            let count = quality.accuracyLevels[level] ?? 0
            return count > 0 ? "\(level) \(NumberText.fixed(Double(count) / Double(total) * 100, decimals: 0)) %" : nil
        }
        var stats = [Stat(label: "Signal", value: levels.joined(separator: " · "))]
        if let p50 = quality.accuracyP50, let p95 = quality.accuracyP95, let worst = quality.accuracyMax {
            let text = { DistanceFormat.string(metres: $0, units: units) }
            stats.append(
                Stat(label: "Accuracy", value: "±\(text(p50)) typical, ±\(text(p95)) for 95 %, worst ±\(text(worst))"))
        }
        let reasons = quality.rejectedBy.filter { $0.value > 0 }.sorted { $0.value > $1.value }
            .map { "\($0.key.replacingOccurrences(of: "_", with: " ")) \($0.value)" }
        stats.append(
            Stat(
                label: "Fixes",
                value: "\(quality.received) received, \(quality.rejected) not on the route"
                    + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))")))
        if let interval = quality.recordingInterval {
            stats.append(Stat(label: "Recording", value: "every \(NumberText.trimmed(interval, decimals: 1)) s"))
        }
        stats.append(
            Stat(
                label: "Signal lost",
                value: quality.gapCount == 0
                    ? "never"
                    : "\(quality.gapCount)×, \(TimeFormat.duration(seconds: quality.gapTime)) in all, longest \(TimeFormat.duration(seconds: quality.longestGap))"
            ))
        return stats
    }

    /// Meridian's distance and timer beside the ones the device computed, for a run imported from a device file.
    static func comparison(_ run: RunSummary, units: UnitSystem) -> [ComparisonRow] {
        DeviceComparison.rows(run).map { row in
            ComparisonRow(
                what: row.what, ours: row.text(row.ours, units: units), theirs: row.text(row.theirs, units: units),
                difference: row.difference)
        }
    }
}
