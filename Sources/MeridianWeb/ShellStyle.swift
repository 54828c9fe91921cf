/// The shell's part of the stylesheet of every page (`/assets/app.css`; each plugin adds its own, `WebPages.webStyle`):
/// readable from 320 px up, system fonts, no web fonts.
enum ShellStyle {
    static let css = #"""
        :root {
          --bg: #f3f4ef; --surface: #ffffff; --ink: #17201b; --muted: #515c55; --line: #dbe0d8;
          --accent: #0a7150; --accent-soft: #e2f2ea; --warm: #b45309; --danger: #b42318; --focus: #1d5fd6;
          --good: #0a7150; --fair: #8a6a00; --poor: #b45309; --unusable: #b42318;
          --radius: 14px; --shadow: 0 1px 2px rgba(23, 32, 27, .06), 0 4px 14px rgba(23, 32, 27, .06);
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0; background: var(--bg); color: var(--ink); line-height: 1.5;
          font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
        a { color: var(--accent); text-underline-offset: 2px; }
        a:hover { color: #064b35; }
        :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        .skip { position: absolute; left: -999px; top: 8px; background: #fff; color: var(--ink); padding: 8px 12px; border-radius: 8px; z-index: 2000; }
        .skip:focus { left: 8px; }
        .top { background: #12201a; color: #fff; }
        .top .bar { max-width: 1080px; margin: 0 auto; padding: 10px 16px; display: flex; align-items: center; gap: 8px 20px; flex-wrap: wrap; }
        .brand { color: #fff; font-weight: 750; font-size: 1.15rem; letter-spacing: .01em; text-decoration: none; display: inline-flex; align-items: center; gap: 8px; }
        .brand:hover { color: #d6f5e6; }
        .brand svg { width: 26px; height: 26px; }
        .top nav { flex: 1; }
        .top nav ul { list-style: none; margin: 0; padding: 0; display: flex; gap: 4px; flex-wrap: wrap; }
        .top nav a { display: block; color: #dfe9e3; text-decoration: none; padding: 8px 12px; border-radius: 999px; font-weight: 550; }
        .top nav a:hover { background: rgba(255, 255, 255, .1); color: #fff; }
        .top nav a[aria-current="page"] { background: #fff; color: #12201a; }
        .top form { margin: 0; }
        .top .link-button { background: none; border: 1px solid rgba(255, 255, 255, .4); color: #fff; border-radius: 999px; padding: 6px 12px; font: inherit; cursor: pointer; }
        main { max-width: 1080px; margin: 0 auto; padding: 20px 16px 48px; }
        main:focus { outline: none; }
        h1 { font-size: 1.9rem; line-height: 1.2; margin: 4px 0 6px; letter-spacing: -.01em; overflow-wrap: anywhere; }
        h2 { font-size: 1.2rem; margin: 0 0 12px; }
        h3 { font-size: 1rem; margin: 0 0 8px; }
        p { margin: 0 0 12px; }
        .lede { color: var(--muted); margin-bottom: 18px; overflow-wrap: anywhere; }
        .muted { color: var(--muted); }
        .small { font-size: .875rem; }
        .card { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: var(--shadow); padding: 18px; margin: 0 0 18px; }
        .card > :last-child { margin-bottom: 0; }
        .grid-2 { display: grid; gap: 18px; grid-template-columns: repeat(auto-fit, minmax(min(340px, 100%), 1fr)); align-items: start; }
        .grid-2 > .card { margin: 0; }
        .grid-2 { margin-bottom: 18px; }
        .stats + .stats { margin-top: 14px; }
        .stats + .actions { margin-top: 18px; }
        code { overflow-wrap: anywhere; }
        tbody th { text-transform: none; letter-spacing: 0; font-size: 1rem; color: var(--ink); font-weight: 650; }
        .stack > * + * { margin-top: 18px; }
        .head { display: flex; align-items: flex-start; justify-content: space-between; gap: 12px; flex-wrap: wrap; }
        .stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(130px, 1fr)); gap: 12px 18px; margin: 0; }
        .stat { margin: 0; }
        .stat dt { font-size: .75rem; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); font-weight: 650; }
        .stat dd { margin: 2px 0 0; font-size: 1.65rem; font-weight: 720; font-variant-numeric: tabular-nums; line-height: 1.15; }
        .stat dd small { font-size: .85rem; font-weight: 550; color: var(--muted); }
        .stats.big .stat dd { font-size: 2.3rem; }
        .hero { background: linear-gradient(135deg, #0b3d2c, #0a7150); color: #fff; border: 0; }
        .hero .stat dt, .hero .muted { color: #cde9db; }
        .hero .stat dd small { color: #cde9db; }
        .hero h2 { color: #fff; }
        .badge { display: inline-block; padding: 2px 10px; border-radius: 999px; font-size: .8rem; font-weight: 650; background: var(--accent-soft); color: var(--accent); vertical-align: middle; }
        .badge.warm { background: #fdebd8; color: #8a3f05; }
        .signal { display: inline-flex; align-items: center; gap: 6px; font-weight: 650; }
        .signal::before { content: ""; width: 10px; height: 10px; border-radius: 50%; background: currentColor; }
        .signal-good { color: var(--good); } .signal-fair { color: var(--fair); } .signal-poor { color: var(--poor); }
        .signal-unusable { color: var(--unusable); } .signal-none { color: var(--muted); }
        .hero .signal { color: #fff; }
        table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
        th, td { text-align: left; padding: 9px 10px; border-bottom: 1px solid var(--line); vertical-align: middle; }
        th { font-size: .78rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); font-weight: 650; }
        td.num, th.num { text-align: right; white-space: nowrap; }
        tbody tr:hover { background: #f7f8f4; }
        tr.best td, tr.best th { background: var(--accent-soft); }
        .table-wrap { overflow-x: auto; -webkit-overflow-scrolling: touch; }
        meter { width: 100%; min-width: 60px; height: 10px; }
        form.inline { display: flex; flex-wrap: wrap; gap: 10px; align-items: end; }
        .field { display: flex; flex-direction: column; gap: 4px; min-width: 0; }
        .field.grow { flex: 1 1 200px; }
        label { font-weight: 600; font-size: .9rem; }
        input, select, textarea { font: inherit; color: var(--ink); background: #fff; border: 1px solid #aab3ac; border-radius: 10px; padding: 9px 11px; min-height: 44px; max-width: 100%; }
        textarea { min-height: 90px; width: 100%; }
        input:focus, select:focus, textarea:focus { border-color: var(--focus); }
        .button, button { display: inline-flex; align-items: center; justify-content: center; gap: 6px; min-height: 44px; padding: 9px 18px; border-radius: 999px; border: 1px solid var(--accent); background: var(--accent); color: #fff; font: inherit; font-weight: 650; cursor: pointer; text-decoration: none; }
        .button:hover, button:hover { background: #075c40; color: #fff; }
        .button.secondary, button.secondary { background: #fff; color: var(--accent); }
        .button.secondary:hover, button.secondary:hover { background: var(--accent-soft); color: #064b35; }
        button.danger { background: #fff; color: var(--danger); border-color: var(--danger); }
        button.danger:hover { background: #fdecea; }
        .hero button { background: #fff; color: #0b3d2c; border-color: #fff; }
        .hero button:hover { background: #d6f5e6; color: #0b3d2c; }
        .hero button.secondary { background: transparent; color: #fff; border-color: rgba(255, 255, 255, .7); }
        .hero button.secondary:hover { background: rgba(255, 255, 255, .12); }
        .actions { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; }
        .notice { border-left: 4px solid var(--accent); background: var(--accent-soft); padding: 12px 14px; border-radius: 10px; margin: 0 0 18px; }
        .notice.error { border-color: var(--danger); background: #fdecea; }
        .notice form { display: inline; }
        ul.errors { margin: 8px 0 0; padding-left: 20px; }
        ul.errors li { margin: 4px 0; }
        .map { height: 420px; border-radius: var(--radius); overflow: hidden; background: #eef1ea; border: 1px solid var(--line); }
        .map.static { height: auto; }
        .map img, .map.static svg { display: block; width: 100%; height: auto; }
        .leaflet-container { background: #eef1ea; font: inherit; }
        .mark-icon { background: #fff; border: 2px solid #1c2621; border-radius: 50%; color: #1c2621; font: 700 11px/18px system-ui, sans-serif; text-align: center; width: 22px !important; height: 22px !important; }
        .pager { display: flex; justify-content: space-between; gap: 10px; margin-top: 14px; flex-wrap: wrap; }
        .empty { text-align: center; padding: 28px 12px; color: var(--muted); }
        .signin { max-width: 420px; margin: 8vh auto 0; }
        .signin input { width: 100%; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; margin: 0; }
        dl.facts dt { color: var(--muted); }
        dl.facts dd { margin: 0; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
        details summary { cursor: pointer; font-weight: 650; min-height: 32px; }
        footer { max-width: 1080px; margin: 0 auto; padding: 0 16px 32px; color: var(--muted); font-size: .85rem; }
        [hidden] { display: none !important; }
        .visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        @media (max-width: 640px) {
          main { padding: 14px 12px 40px; }
          h1 { font-size: 1.55rem; }
          .card { padding: 14px; }
          .stat dd { font-size: 1.35rem; }
          .stats.big .stat dd { font-size: 1.8rem; }
          .map { height: 300px; }
          th, td { padding: 8px 4px; }
          th { letter-spacing: 0; }
          meter { min-width: 36px; }
          .hide-narrow { display: none; }
          .top .bar { padding: 8px 12px; gap: 6px 10px; }
          .top nav { order: 3; flex-basis: 100%; min-width: 0; }
          .top nav ul { flex-wrap: nowrap; overflow-x: auto; }
          .top nav a { padding: 6px 12px; white-space: nowrap; }
          .top form { margin-left: auto; }
        }
        """#
}
