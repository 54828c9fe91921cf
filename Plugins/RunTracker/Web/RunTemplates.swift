import MeridianWeb

/// The run tracker's page templates: the live run on the "now" page, the history, one run and the records.
enum RunTemplates {
    static let set = TemplateSet(["live": live, "list": list, "run": run, "records": records])

    static let live = #"""
        <section class="card hero" data-refresh="/now/run" data-refresh-on="{{refreshOn}}" data-refresh-every="{{refreshEvery}}" data-state="{{state}}" aria-labelledby="live-title">
        {{#active}}<div class="head"><div><h2 id="live-title">{{name}}</h2><p class="muted"><span class="badge">{{activity}}</span> <span id="run-message" data-live>{{message}}</span></p></div>
        <span id="run-signal" data-live class="signal">{{signal}}</span></div>
        <dl class="stats big">
        <div class="stat"><dt>Distance</dt><dd id="run-distance" data-live>{{distance}}</dd></div>
        <div class="stat"><dt>Time</dt><dd id="run-timer" data-live>{{timer}}</dd></div>
        <div class="stat"><dt>{{paceLabel}}</dt><dd id="run-pace" data-live>{{pace}}</dd></div>
        </dl>
        <dl class="stats">
        <div class="stat"><dt>Average</dt><dd id="run-average" data-live>{{average}}</dd></div>
        <div class="stat"><dt>Split</dt><dd id="run-split" data-live>{{split}}</dd></div>
        <div class="stat"><dt>Moving</dt><dd id="run-pattern" data-live>{{pattern}}</dd></div>
        <div class="stat"><dt>Power</dt><dd id="run-power" data-live>{{power}}</dd></div>
        <div class="stat"><dt>Lap</dt><dd id="run-lap" data-live>{{lap}}</dd></div>
        </dl>
        <p id="run-last-lap" class="muted small" data-live{{^lastLap}} hidden{{/lastLap}}>Last {{lastLap}}</p>
        <div class="actions">
        {{#tracking}}<button type="button" data-api="POST {{pauseURL}}" data-autofocus>Pause</button>{{/tracking}}
        {{^tracking}}<button type="button" data-api="POST {{resumeURL}}" data-autofocus>Resume</button>{{/tracking}}
        <button type="button" class="secondary" data-api="POST /v1/runs/active/lap" id="lap-button">Lap</button>
        <button type="button" class="secondary" data-api="POST {{stopURL}}">Stop</button>
        </div>{{/active}}
        {{#draft}}<h2 id="live-title">{{name}} is too short to save</h2>
        <p class="muted">A run needs at least a minute and 100 m. It has {{distance}} in {{timer}}. Go on with it, or discard it.</p>
        <div class="actions"><button type="button" data-api="POST {{resumeURL}}" data-autofocus>Resume</button>
        <button type="button" class="secondary" data-api="POST {{discardURL}}" data-confirm="Discard this run?">Discard</button></div>{{/draft}}
        {{#idle}}<h2 id="live-title">Ready when you are</h2>
        <p class="muted">The run starts at once; until your receiver has a fix it counts time and shows “waiting for GPS”.</p>
        <form class="inline" data-api="POST /v1/runs">
        <div class="field grow"><label for="run-name">Name (optional)</label><input id="run-name" name="name" maxlength="200" placeholder="Morning run"></div>
        <div class="field"><label for="run-activity">Activity</label><select id="run-activity" name="activity">{{#activities}}<option value="{{value}}">{{label}}</option>{{/activities}}</select></div>
        <button type="submit" data-autofocus>Start</button>
        </form>
        {{#last}}<p class="muted small">Last: <a href="{{href}}">{{name}}</a> · {{distance}} · {{duration}} · {{date}}</p>{{/last}}{{/idle}}
        </section>
        """#

    static let list = #"""
        <h1>Runs</h1>
        <p class="lede">Newest first · times in {{zone}}</p>
        {{#deleted}}<div class="notice" role="status">“{{name}}” was deleted. It can be restored for 30 days.
        <form method="post" action="{{restoreAction}}"><button class="secondary" type="submit">Undo</button></form></div>{{/deleted}}
        {{#error}}<p class="notice error" role="alert">{{error}}</p>{{/error}}
        <form class="card inline" method="get" action="/runs" role="search" aria-label="Find runs">
        <div class="field grow"><label for="q">Name</label><input id="q" name="q" type="search" value="{{query}}" placeholder="e.g. park"></div>
        <div class="field"><label for="activity">Activity</label><select id="activity" name="activity">{{#activities}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/activities}}</select></div>
        <div class="field"><label for="from">From</label><input id="from" name="from" type="date" value="{{from}}"></div>
        <div class="field"><label for="to">To</label><input id="to" name="to" type="date" value="{{to}}"></div>
        <button type="submit">Search</button>{{#filtered}}<a class="button secondary" href="/runs">Clear</a>{{/filtered}}
        </form>
        {{#hasRows}}<div class="card"><div class="table-wrap"><table class="runs">
        <thead><tr><th scope="col">Date</th><th scope="col">Name</th><th scope="col" class="num">Distance</th><th scope="col" class="num">Time</th><th scope="col" class="num">Pace</th></tr></thead>
        <tbody>{{#rows}}<tr><td>{{date}}<div class="muted small">{{time}}</div></td><td><a class="name" href="{{href}}">{{name}}</a><div class="muted small">{{activity}}</div></td><td class="num">{{distance}}</td><td class="num">{{duration}}</td><td class="num">{{pace}}</td></tr>
        {{/rows}}</tbody></table></div>
        <nav class="pager" aria-label="More runs">{{#firstHref}}<a class="button secondary" href="{{firstHref}}">Newest runs</a>{{/firstHref}}<span></span>{{#nextHref}}<a class="button secondary" href="{{nextHref}}">Older runs</a>{{/nextHref}}</nav>
        </div>{{/hasRows}}
        {{^hasRows}}<div class="card empty"><p>{{#filtered}}No run matches.{{/filtered}}{{^filtered}}No runs yet. Start one on the <a href="/">now page</a>, or import a recording with <code>meridian runs import FILE</code>.{{/filtered}}</p></div>{{/hasRows}}
        """#

    static let run = #"""
        {{#saved}}<p class="notice" role="status">Saved.</p>{{/saved}}
        {{#restored}}<p class="notice" role="status">The run is back.</p>{{/restored}}
        <div class="head"><div>
        <h1>{{name}}</h1>
        <p class="lede"><span class="badge">{{activity}}</span> {{date}}{{#device}} · recorded by {{device}}{{/device}}</p>
        </div></div>
        {{#hasRecords}}<p class="notice"><strong>Personal records set by this run:</strong> {{recordList}}</p>{{/hasRecords}}
        {{#gearNotice}}<p class="notice warning" role="status" id="gear-notice">{{gearNotice}}</p>{{/gearNotice}}
        {{#hasNotes}}<p>{{notes}}</p>{{/hasNotes}}
        <section class="card" aria-label="Totals"><dl class="stats big">{{#headline}}<div class="stat"><dt>{{label}}</dt><dd>{{value}}</dd></div>{{/headline}}</dl>
        <dl class="stats">{{#details}}<div class="stat"><dt>{{label}}</dt><dd>{{value}}</dd></div>{{/details}}</dl>
        {{#gear}}<p class="muted small" id="run-gear">Gear: {{gear}}</p>{{/gear}}</section>
        <section class="card" aria-labelledby="route-title">
        <h2 id="route-title">Route</h2>
        {{#leaflet}}<div class="map" data-map="route-data" role="region" aria-label="Map of the route"><noscript><img src="{{pictureURL}}" alt="The route, coloured by pace"></noscript></div>
        {{{mapData}}}{{/leaflet}}
        {{^leaflet}}<div class="map static"><img src="{{pictureURL}}" alt="The route, coloured by pace"></div>{{/leaflet}}
        <p class="legend"><span>{{splitPaceLabel}}</span> <span>{{fast}}</span><span class="ramp" aria-hidden="true"><span class="c0"></span><span class="c1"></span><span class="c2"></span><span class="c3"></span><span class="c4"></span><span class="c5"></span><span class="c6"></span><span class="c7"></span></span><span>{{slow}}</span> <span>· dashed: paused or no signal</span></p>
        </section>
        {{#hasCharts}}<section class="card charts" aria-label="Charts">{{#charts}}<figure class="chart"><figcaption>{{title}}</figcaption>{{{svg}}}</figure>{{/charts}}</section>{{/hasCharts}}
        <div class="grid-2">
        <section class="card" aria-labelledby="splits-title"><h2 id="splits-title">Splits</h2>
        {{#hasSplits}}<div class="table-wrap"><table>
        <thead><tr><th scope="col">{{splitUnit}}</th><th scope="col" class="num">{{splitPaceLabel}}</th>{{#splitHeartRate}}<th scope="col" class="num">Heart rate</th>{{/splitHeartRate}}<th scope="col"><span class="visually-hidden">Relative speed</span></th></tr></thead>
        <tbody>{{#splits}}<tr{{#fastest}} class="best"{{/fastest}}><th scope="row">{{label}}</th><td class="num">{{pace}}{{#fastest}} <span aria-hidden="true">★</span><span class="visually-hidden">(fastest)</span>{{/fastest}}</td>{{#splitHeartRate}}<td class="num">{{heartRate}}</td>{{/splitHeartRate}}<td><meter min="0" max="1" value="{{relative}}" aria-label="relative speed">{{relative}}</meter></td></tr>
        {{/splits}}</tbody></table></div>{{/hasSplits}}
        {{^hasSplits}}<p class="muted">Too short for a split.</p>{{/hasSplits}}
        {{#zonesMax}}<h3 class="small" id="zones-title">Heart-rate zones, of max {{zonesMax}}</h3>
        <div class="table-wrap"><table><thead><tr><th scope="col">Zone</th><th scope="col" class="num">Heart rate</th><th scope="col" class="num">Time</th><th scope="col" class="num">Share</th></tr></thead>
        <tbody>{{#zones}}<tr><th scope="row">{{zone}}</th><td class="num">{{range}}</td><td class="num">{{time}}</td><td class="num">{{share}}</td></tr>{{/zones}}</tbody></table></div>{{/zonesMax}}
        </section>
        <section class="card" aria-labelledby="quality-title"><h2 id="quality-title">Data quality</h2>
        <dl class="facts">{{#quality}}<dt>{{label}}</dt><dd>{{value}}</dd>{{/quality}}</dl>
        {{#hasComparison}}<h3 class="small">Meridian and {{deviceName}}</h3>
        <div class="table-wrap"><table><thead><tr><th scope="col"></th><th scope="col" class="num">Meridian</th><th scope="col" class="num">Device</th><th scope="col" class="num">Difference</th></tr></thead>
        <tbody>{{#comparison}}<tr><th scope="row">{{what}}</th><td class="num">{{ours}}</td><td class="num">{{theirs}}</td><td class="num">{{difference}}</td></tr>{{/comparison}}</tbody></table></div>{{/hasComparison}}
        </section>
        </div>
        {{#hasLaps}}<section class="card" aria-labelledby="laps-title"><h2 id="laps-title">Laps</h2>
        <div class="table-wrap"><table class="laps">
        <thead><tr><th scope="col">Lap</th><th scope="col" class="num">Distance</th><th scope="col" class="num">Time</th><th scope="col" class="num">{{splitPaceLabel}}</th>{{#lapHeartRate}}<th scope="col" class="num">Heart rate</th>{{/lapHeartRate}}{{#lapTrigger}}<th scope="col" class="hide-narrow">Ended by</th>{{/lapTrigger}}</tr></thead>
        <tbody>{{#laps}}<tr><th scope="row">{{index}}</th><td class="num">{{distance}}</td><td class="num">{{time}}</td><td class="num">{{pace}}</td>{{#lapHeartRate}}<td class="num">{{heartRate}}</td>{{/lapHeartRate}}{{#lapTrigger}}<td class="hide-narrow">{{trigger}}</td>{{/lapTrigger}}</tr>
        {{/laps}}</tbody></table></div></section>{{/hasLaps}}
        <section class="card" aria-labelledby="edit-title"><h2 id="edit-title">Name and notes</h2>
        <form method="post" action="{{editAction}}" class="stack">
        <div class="field"><label for="name">Name</label><input id="name" name="name" value="{{name}}" maxlength="200" required></div>
        <div class="field"><label for="notes">Notes</label><textarea id="notes" name="notes" maxlength="10000">{{notes}}</textarea></div>
        <button type="submit">Save</button>
        </form></section>
        <section class="card actions" aria-label="Export and delete">
        <span>Export:</span>{{#exports}}<a class="button secondary" href="{{href}}" download>{{label}}</a>{{/exports}}
        <form method="post" action="{{deleteAction}}"><button type="submit" class="danger">Delete run</button></form>
        </section>
        """#

    static let records = #"""
        <h1>Records</h1>
        <p class="lede">Fastest and longest efforts of your runs, rides and hikes · times in {{zone}}</p>
        <section class="card" aria-labelledby="current-title"><h2 id="current-title">Personal records</h2>
        {{#hasRecords}}<div class="table-wrap"><table>
        <thead><tr><th scope="col">Distance</th><th scope="col" class="num">Time</th><th scope="col" class="num hide-narrow">Pace or speed</th><th scope="col">When</th></tr></thead>
        <tbody>{{#current}}<tr><th scope="row">{{distance}}</th><td class="num"><strong>{{time}}</strong><div class="muted small show-narrow">{{pace}}</div></td><td class="num hide-narrow">{{pace}}</td><td class="record-run">{{#href}}<a href="{{href}}">{{runName}}</a>{{/href}}{{^href}}{{runName}}{{/href}}<div class="muted small">{{date}}</div></td></tr>
        {{/current}}</tbody></table></div>{{/hasRecords}}
        {{^hasRecords}}<p class="muted">No records yet: they come from saved runs, rides and hikes.</p>{{/hasRecords}}
        </section>
        {{{goals}}}
        <div class="grid-2">
        <figure class="card chart" id="weeks"><figcaption>Distance per week · {{weeksSpan}}</figcaption>{{{weeks}}}
        <p class="actions">{{#weeksEarlier}}<a href="{{weeksEarlier}}#weeks">‹ Earlier weeks</a>{{/weeksEarlier}} {{#weeksLater}}<a href="{{weeksLater}}#weeks">Later weeks ›</a>{{/weeksLater}}</p></figure>
        <figure class="card chart" id="months"><figcaption>Distance per month · {{monthsSpan}}</figcaption>{{{months}}}
        <p class="actions">{{#monthsEarlier}}<a href="{{monthsEarlier}}#months">‹ Earlier months</a>{{/monthsEarlier}} {{#monthsLater}}<a href="{{monthsLater}}#months">Later months ›</a>{{/monthsLater}}</p></figure>
        </div>
        {{#hasProgressions}}<section class="card" aria-labelledby="progress-title"><h2 id="progress-title">How they improved</h2>
        <div class="table-wrap"><table><thead><tr><th scope="col">Distance</th><th scope="col">Set on</th><th scope="col" class="num">Time</th><th scope="col" class="num">Better by</th><th scope="col" class="hide-narrow">Run</th></tr></thead>
        <tbody>{{#progressions}}{{#entries}}<tr><th scope="row">{{distance}}</th><td>{{date}}</td><td class="num">{{time}}</td><td class="num">{{improvement}}</td><td class="hide-narrow">{{#href}}<a href="{{href}}">{{runName}}</a>{{/href}}{{^href}}{{runName}} <span class="muted small">(deleted)</span>{{/href}}</td></tr>
        {{/entries}}{{/progressions}}</tbody></table></div></section>{{/hasProgressions}}
        {{{gear}}}
        """#
}
