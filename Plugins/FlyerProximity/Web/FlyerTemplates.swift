import MeridianWeb

/// The flyers page: what is near, nearest first, with a map, a category filter and the upload of a file.
enum FlyerTemplates {
    static let set = TemplateSet(["flyers": flyers])

    static let flyers = #"""
        <h1>Flyers near {{centreName}}</h1>
        <p class="lede">{{summary}}</p>
        {{#imported}}<p class="notice" role="status">{{imported}}</p>{{/imported}}
        {{#error}}<p class="notice error" role="alert">{{error}}</p>{{/error}}
        <form id="near-form" class="card inline" method="get" action="/flyers" aria-label="Search position and category">
        <div class="field"><label for="lat">Latitude</label><input id="lat" name="lat" type="number" step="any" min="-90" max="90" value="{{lat}}" placeholder="48.8566"></div>
        <div class="field"><label for="lon">Longitude</label><input id="lon" name="lon" type="number" step="any" min="-180" max="180" value="{{lon}}" placeholder="2.3522"></div>
        <div class="field grow"><label for="category">Category</label><input id="category" name="category" value="{{categoryFilter}}" list="categories" placeholder="any"><datalist id="categories">{{#categories}}<option value="{{.}}"></option>{{/categories}}</datalist></div>
        <button type="submit">Search</button>
        {{#typed}}<a class="button secondary" href="/flyers{{#categoryQuery}}?category={{categoryQuery}}{{/categoryQuery}}">Use my position</a>{{/typed}}
        </form>
        <div class="grid-2">
        <section class="card" aria-labelledby="list-title"><h2 id="list-title">Nearest first</h2>
        {{#hasItems}}<ol class="flyers">{{#items}}<li>
        <div class="distance">{{distance}}{{#direction}}<div class="muted small">{{direction}}</div>{{/direction}}</div>
        <div class="what"><div class="title">{{title}}</div>
        {{#category}}<span class="badge warm">{{category}}</span> {{/category}}{{#address}}<span class="muted small">{{address}}</span>{{/address}}
        {{#description}}<p class="small">{{description}}</p>{{/description}}
        {{#validUntil}}<p class="muted small">until {{validUntil}}</p>{{/validUntil}}
        {{#webLink}}<p class="small"><a href="{{webLink}}" rel="noopener noreferrer nofollow">{{webLink}}</a></p>{{/webLink}}</div>
        {{#mapURL}}<a class="button secondary" href="{{mapURL}}" rel="noopener noreferrer">Open in Maps<span class="visually-hidden"> for {{title}}</span></a>{{/mapURL}}
        </li>{{/items}}</ol>{{/hasItems}}
        {{^hasItems}}<p class="empty">No flyers{{#categoryFilter}} in “{{categoryFilter}}”{{/categoryFilter}} here. Import some below.</p>{{/hasItems}}
        </section>
        <section class="card" aria-labelledby="map-title"><h2 id="map-title">Map</h2>
        {{#leaflet}}<div class="map" data-map="flyer-data" role="region" aria-label="Map of the flyers; click to search around a point"><p class="empty">The map needs JavaScript; the list shows the same flyers.</p></div>{{{mapData}}}
        <p class="muted small">Click the map to search around that point.</p>{{/leaflet}}
        {{^leaflet}}<p class="muted">Maps appear here when Leaflet is installed (Debian package libjs-leaflet).</p>{{/leaflet}}
        </section>
        </div>
        <section class="card" aria-labelledby="import-title"><h2 id="import-title">Import flyers</h2>
        <p class="muted">A GeoJSON FeatureCollection or a CSV file with the columns <code>id,title,lat,lon,category,address,description,url,radius_m,valid_from,valid_until</code> (title, lat and lon required). Flyers with an existing id are replaced; a file with any problem imports nothing.</p>
        {{#hasUploadErrors}}<div class="notice error" role="alert"><strong>{{uploadFile}}: nothing was imported.</strong> Fix {{#oneError}}this line{{/oneError}}{{^oneError}}these lines{{/oneError}} and upload it again:
        <ul class="errors">{{#uploadErrors}}<li>{{.}}</li>{{/uploadErrors}}</ul></div>{{/hasUploadErrors}}
        <form class="inline" method="post" action="/flyers/import" enctype="multipart/form-data">
        <div class="field grow"><label for="file">File</label><input id="file" name="file" type="file" accept=".geojson,.json,.csv,application/geo+json,text/csv" required></div>
        <div class="field"><label for="format">Format</label><select id="format" name="format"><option value="">from the file</option><option value="geojson">GeoJSON</option><option value="csv">CSV</option></select></div>
        <button type="submit">Import</button>
        </form>
        </section>
        """#
}
