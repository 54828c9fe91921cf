import MeridianWeb

/// The Devices page: the registered phones with their last fix, battery and state, adding one (its key, what to type
/// into the app and, for OwnTracks, the QR code that sets it up) and revoking one.
enum DeviceTemplates {
    static let set = TemplateSet(["devices": devices])

    static let devices = #"""
        <h1>Devices</h1>
        <p class="lede">Phones that post their positions with OwnTracks, Traccar Client or OsmAnd, Overland or GPSLogger. Each has a key of its own that lets it post fixes and nothing else.</p>
        {{#removed}}<p class="notice" role="status">“{{removed}}” was removed: its key no longer works.</p>{{/removed}}
        {{#error}}<p class="notice error" role="alert">{{error}}</p>{{/error}}
        {{#added}}<section class="card" id="new-device" aria-labelledby="added-title"><h2 id="added-title">“{{name}}” is registered</h2>
        <p>Its key, shown only now (<code>meridian devices rotate</code> gives a new one):</p>
        <p><code id="device-key">{{key}}</code></p>
        <pre class="small">{{instructions}}</pre>
        {{#qr}}<p>Or scan this with the phone's camera, or open <a id="owntracks-link" href="{{link}}">the set-up link</a> on the phone, to set OwnTracks up in one step:</p>
        <div class="qr" id="device-qr">{{{qr}}}</div>{{/qr}}
        </section>{{/added}}
        <section class="card" aria-labelledby="list-title"><h2 id="list-title">Registered</h2>
        {{#hasDevices}}<div class="table-wrap"><table id="devices"><thead><tr><th scope="col">Name</th><th scope="col">App</th><th scope="col">Last fix</th><th scope="col" class="num">Battery</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>
        {{#devices}}<tr data-device="{{name}}"><td>{{name}}</td><td>{{app}}</td><td>{{lastFix}}</td><td class="num">{{battery}}</td><td>{{state}}</td>
        <td><form method="post" action="/devices/remove"><input type="hidden" name="name" value="{{name}}"><button type="submit" class="secondary">Revoke<span class="visually-hidden"> {{name}}</span></button></form></td></tr>
        {{/devices}}</tbody></table></div>{{/hasDevices}}
        {{^hasDevices}}<p class="empty">No phones yet. Add one below.</p>{{/hasDevices}}
        </section>
        <section class="card" aria-labelledby="add-title"><h2 id="add-title">Add a phone</h2>
        <form id="add-device" class="inline" method="post" action="/devices/add">
        <div class="field grow"><label for="device-name">Name</label><input id="device-name" name="name" required maxlength="64" placeholder="Zoë's phone"></div>
        <div class="field"><label for="device-protocol">App</label><select id="device-protocol" name="protocol">{{#apps}}<option value="{{value}}">{{label}}</option>{{/apps}}</select></div>
        <button type="submit">Add</button>
        </form>
        </section>
        """#
}
