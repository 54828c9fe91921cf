/// The shell's Mustache templates: the layout of every page, sign-in, the "now" page and error pages.
enum ShellTemplates {
    static let set = TemplateSet([
        "layout": layout, "signin": signIn, "now": now, "position": position, "error": error
    ])

    static let layout = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light">
        <title>{{title}} · Meridian</title>
        <link rel="icon" href="{{icon}}" type="image/svg+xml">
        {{#leaflet}}<link rel="stylesheet" href="/assets/leaflet/leaflet.css">
        <script src="/assets/leaflet/leaflet.js" defer></script>
        {{/leaflet}}<link rel="stylesheet" href="{{css}}">
        <script src="{{script}}" defer></script>
        </head>
        <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
        <div class="bar">
        <a class="brand" href="/"><svg aria-hidden="true" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="#0a7150"/><path d="M16 2.5c-4.5 4-4.5 23 0 27" fill="none" stroke="#d6f5e6" stroke-width="2"/><path d="M6 21c4-1 6-7 10-7s5 4 10 2" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/></svg>Meridian</a>
        <nav aria-label="Main"><ul>{{#navigation}}<li><a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a></li>{{/navigation}}</ul></nav>
        {{#signedIn}}<form method="post" action="/signout"><button class="link-button" type="submit">Sign out</button></form>{{/signedIn}}
        </div>
        </header>
        <main id="main" tabindex="-1">
        <p id="api-status" class="notice" role="status" aria-live="polite" hidden></p>
        {{{body}}}
        </main>
        <footer>{{#tiles}}Map tiles are loaded by your browser from the configured tile server{{#tileAttribution}} ({{tileAttribution}}){{/tileAttribution}}; it sees the area you view.{{/tiles}}{{^tiles}}Private by design: maps are drawn without tiles and nothing leaves this machine.{{/tiles}}</footer>
        </body>
        </html>
        """#

    static let signIn = #"""
        <div class="signin card">
        <h1>Sign in</h1>
        <p class="muted">This Meridian asks for its access token once; your browser then keeps a session. It is the <code>http.token</code> of its configuration, or the one <code>meridian serve</code> made beside its database (<code>&lt;database&gt;.token</code>), whose sign-in link the service logged at its start.</p>
        {{#error}}<p class="notice error" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="/signin" class="stack">
        <input type="hidden" name="next" value="{{next}}">
        <div class="field"><label for="token">Access token</label>
        <input id="token" name="token" type="password" autocomplete="current-password" required autofocus></div>
        <button type="submit">Sign in</button>
        </form>
        </div>
        """#

    static let now = #"""
        <h1>Now</h1>
        <p class="lede">Live from your receivers{{#zone}} · times in {{zone}}{{/zone}}</p>
        {{#sections}}{{{.}}}
        {{/sections}}
        """#

    static let position = #"""
        <section class="grid-2" data-refresh="/now/position" data-refresh-on="fix" data-refresh-every="5" data-state="{{state}}" aria-label="Position and receivers">
        <div class="card">
        <div class="head"><h2>Position</h2><span id="signal" data-live class="signal signal-{{signalClass}}">{{signalText}}</span></div>
        {{#fix}}<dl class="facts">
        <dt>Latitude, longitude</dt><dd id="fix-coordinate" data-live>{{coordinate}}</dd>
        <dt>Accuracy</dt><dd id="fix-accuracy" data-live>{{accuracy}}</dd>
        <dt>Speed</dt><dd id="fix-speed" data-live>{{speed}}</dd>
        <dt>Satellites</dt><dd id="fix-satellites" data-live>{{satellites}}</dd>
        <dt>From</dt><dd id="fix-provider" data-live>{{provider}}</dd>
        <dt>Age</dt><dd id="fix-age" data-live>{{age}}</dd>
        </dl>{{/fix}}
        {{^fix}}<p class="muted">Waiting for GPS: no receiver has reported a position yet.</p>{{/fix}}
        </div>
        <div class="card">
        <h2>Receivers</h2>
        {{#hasProviders}}<div class="table-wrap"><table>
        <thead><tr><th scope="col">Provider</th><th scope="col">State</th><th scope="col" class="num">Last fix</th><th scope="col" class="num hide-narrow">Fixes</th></tr></thead>
        <tbody>{{#providers}}<tr><td>{{id}} <span class="muted small">{{type}}</span>{{#active}} <span class="badge">in use</span>{{/active}}{{#message}}<div class="muted small">{{message}}</div>{{/message}}</td><td id="provider-{{index}}-state" data-live>{{state}}</td><td class="num" id="provider-{{index}}-age" data-live>{{age}}</td><td class="num hide-narrow" id="provider-{{index}}-fixes" data-live>{{fixes}}</td></tr>{{/providers}}</tbody>
        </table></div>{{/hasProviders}}
        {{^hasProviders}}<p class="muted">No providers are configured.</p>{{/hasProviders}}
        </div>
        </section>
        """#

    static let error = #"""
        <div class="card">
        <h1>{{heading}}</h1>
        <p>{{message}}</p>
        <p><a href="/">Back to now</a></p>
        </div>
        """#
}
