/// The run tracker's part of `/assets/app.css`: the run list, the charts and the pace legend of a run's page.
extension RunTrackerPlugin {
    package var webStyle: String {
        #"""
        .runs td:first-child { white-space: nowrap; }
        .runs .name { font-weight: 620; }
        .charts { display: grid; gap: 18px; grid-template-columns: repeat(auto-fit, minmax(min(420px, 100%), 1fr)); }
        .chart svg { display: block; width: 100%; height: auto; }
        .legend { display: flex; align-items: center; gap: 8px; font-size: .85rem; color: var(--muted); margin-top: 8px; flex-wrap: wrap; }
        .legend .ramp { display: inline-flex; border-radius: 4px; overflow: hidden; }
        .legend .ramp span { width: 18px; height: 10px; display: inline-block; }
        .ramp .c0 { background: #1a9850; } .ramp .c1 { background: #66bd63; } .ramp .c2 { background: #a6d96a; } .ramp .c3 { background: #d9ef8b; }
        .ramp .c4 { background: #fee08b; } .ramp .c5 { background: #fdae61; } .ramp .c6 { background: #f46d43; } .ramp .c7 { background: #d73027; }
        .chart { margin: 0; }
        .chart figcaption { font-weight: 650; margin-bottom: 6px; }
        .notice.warning { border-color: #b7791f; background: #fff4e0; }
        .gear meter { width: 8rem; max-width: 100%; vertical-align: middle; }
        .gear tr.warn .status { color: #9a5b00; font-weight: 620; }
        .gear th .muted { font-weight: 400; }
        .goal-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 12px; }
        .goal-list p { margin: 4px 0 0; }
        .goal-list .reached meter { accent-color: #1a9850; }
        .heatmap { margin: 0; padding: 0; overflow: hidden; }
        .heatmap img { display: block; width: 100%; height: auto; background: #15181c; }
        .heatmap figcaption { padding: 8px 14px; }
        .record-run { overflow-wrap: anywhere; min-width: 6rem; }
        .show-narrow { display: none; }
        @media (max-width: 640px) { .show-narrow { display: block; } }
        """#
    }
}
