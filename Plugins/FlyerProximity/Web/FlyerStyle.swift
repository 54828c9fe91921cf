/// The flyers plugin's part of `/assets/app.css`: the list of flyers nearest first.
extension FlyerPlugin {
    public var webStyle: String {
        #"""
        .flyers { list-style: none; margin: 0; padding: 0; }
        .flyers li { display: flex; gap: 14px; align-items: flex-start; justify-content: space-between; padding: 14px 0; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
        .flyers li:last-child { border-bottom: 0; }
        .flyers .distance { font-weight: 750; font-size: 1.25rem; font-variant-numeric: tabular-nums; min-width: 76px; }
        .flyers .what { flex: 1 1 220px; min-width: 0; overflow-wrap: anywhere; }
        .flyers .title { font-weight: 650; font-size: 1.05rem; }
        """#
    }
}
