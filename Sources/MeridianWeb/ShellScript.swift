/// The one script of every page (`/assets/app.js`): live sections over `/v1/events`, buttons and forms that
/// call the API with the session cookie, and maps drawn with Leaflet. Pages work without it, read-only.
enum ShellScript {
    static let javascript = #"""
        (function () {
          'use strict';

          var statusBox = document.getElementById('api-status');
          function say(text, isError) {
            if (!statusBox) return;
            statusBox.textContent = text || '';
            statusBox.classList.toggle('error', !!isError);
            statusBox.hidden = !text;
          }

          // API calls from the pages: same origin, so the session cookie goes along.
          function api(method, url, body) {
            var options = { method: method, credentials: 'same-origin', headers: { 'Accept': 'application/json' } };
            if (body !== undefined) {
              options.headers['Content-Type'] = 'application/json';
              options.body = JSON.stringify(body);
            }
            return fetch(url, options).then(function (response) {
              if (response.ok) return response.status === 204 ? null : response.json();
              return response.json().catch(function () { return null; }).then(function (data) {
                throw new Error(data && data.error ? data.error.message : 'the server answered ' + response.status);
              });
            });
          }

          function afterAction(element, result) {
            var then = element.getAttribute('data-then');
            if (then === 'reload') { window.location.reload(); return; }
            if (then) { window.location.assign(then); return; }
            var section = element.closest('[data-refresh]');
            if (section) refresh(section, true);
            if (result && result.message) say(result.message, false);
          }

          function run(element, method, url, body) {
            var question = element.getAttribute('data-confirm');
            if (question && !window.confirm(question)) return;
            element.setAttribute('aria-busy', 'true');
            say('', false);
            api(method, url, body).then(function (result) {
              element.removeAttribute('aria-busy');
              afterAction(element, result);
            }, function (error) {
              element.removeAttribute('aria-busy');
              say(error.message, true);
            });
          }

          document.addEventListener('click', function (event) {
            var button = event.target.closest('button[data-api]');
            if (!button || button.form && button.form.hasAttribute('data-api')) return;
            event.preventDefault();
            var parts = button.getAttribute('data-api').split(' ');
            run(button, parts[0], parts[1]);
          });

          document.addEventListener('submit', function (event) {
            var form = event.target;
            if (!form.hasAttribute('data-api')) return;
            event.preventDefault();
            var parts = form.getAttribute('data-api').split(' ');
            var body = {};
            Array.prototype.forEach.call(form.elements, function (field) {
              if (field.name && field.value !== '' && field.type !== 'submit') body[field.name] = field.value;
            });
            run(form, parts[0], parts[1], body);
          });

          // Live sections: fetched again (at most once a second) when their events arrive.
          function refresh(section, now) {
            if (section.refreshTimer && !now) return;
            clearTimeout(section.refreshTimer);
            var wait = now ? 0 : Math.max(0, 1000 - (Date.now() - (section.refreshedAt || 0)));
            section.refreshTimer = setTimeout(function () {
              section.refreshTimer = null;
              section.refreshedAt = Date.now();
              fetch(section.getAttribute('data-refresh'), { credentials: 'same-origin', headers: { 'Accept': 'text/html' } })
                .then(function (response) { return response.ok ? response.text() : null; })
                .then(function (html) { if (html) update(section, html); })
                .catch(function () {});
            }, wait);
          }

          function update(section, html) {
            var holder = document.createElement('template');
            holder.innerHTML = html.trim();
            var fresh = holder.content.firstElementChild;
            if (!fresh) return;
            if (fresh.getAttribute('data-state') === section.getAttribute('data-state')) {
              fresh.querySelectorAll('[data-live][id]').forEach(function (element) {
                var current = document.getElementById(element.id);
                if (!current) return;
                if (current.textContent !== element.textContent) current.textContent = element.textContent;
                current.className = element.className;
                current.hidden = element.hidden;
              });
              return;
            }
            var hadFocus = section.contains(document.activeElement);
            ['data-state', 'data-refresh-on', 'data-refresh-every'].forEach(function (name) {
              section.setAttribute(name, fresh.getAttribute(name) || '');
            });
            section.replaceChildren.apply(section, Array.prototype.slice.call(fresh.childNodes));
            if (hadFocus) {
              var target = section.querySelector('[data-autofocus]') || section.querySelector('h2');
              if (target) { if (!target.hasAttribute('tabindex') && target.tagName === 'H2') target.setAttribute('tabindex', '-1'); target.focus(); }
            }
          }

          var sections = Array.prototype.slice.call(document.querySelectorAll('[data-refresh]'));
          var names = {};
          sections.forEach(function (section) {
            (section.getAttribute('data-refresh-on') || '').split(' ').forEach(function (name) { if (name) names[name] = true; });
          });
          // Sections that change without events (a run's timer) ask to be fetched every few seconds.
          if (sections.length) setInterval(function () {
            sections.forEach(function (section) {
              var every = Number(section.getAttribute('data-refresh-every'));
              if (every > 0 && Date.now() - (section.refreshedAt || 0) >= every * 1000 - 50) refresh(section);
            });
          }, 1000);
          var eventNames = Object.keys(names);
          if (eventNames.length && window.EventSource) {
            var source = new EventSource('/v1/events?types=' + encodeURIComponent(eventNames.join(',')));
            eventNames.forEach(function (name) {
              source.addEventListener(name, function () {
                sections.forEach(function (section) {
                  if ((' ' + section.getAttribute('data-refresh-on') + ' ').indexOf(' ' + name + ' ') >= 0) refresh(section);
                });
              });
            });
            window.addEventListener('pagehide', function () { source.close(); });
          }

          // Maps: drawn with Leaflet when it is installed; otherwise the server's picture stays.
          var fills = { start: '#1a9850', finish: '#1c2621', centre: '#1d5fd6', place: '#c2410c' };

          function text(tag, value) {
            var element = document.createElement(tag);
            element.textContent = value;
            return element;
          }

          function popup(marker) {
            var box = document.createElement('div');
            box.appendChild(text('strong', marker.title));
            if (marker.detail) box.appendChild(text('div', marker.detail));
            if (marker.link) {
              var link = text('a', 'Open in Maps');
              link.href = marker.link;
              link.rel = 'noopener noreferrer';
              box.appendChild(link);
            }
            return box;
          }

          function drawMap(element) {
            var data = document.getElementById(element.getAttribute('data-map'));
            if (!window.L || !data) return;
            var spec = JSON.parse(data.textContent);
            element.textContent = '';
            element.classList.remove('static');
            var map = L.map(element, { attributionControl: !!spec.tiles, zoomSnap: 0.25 });
            if (spec.tiles) {
              var attribution = spec.tiles.attribution ? text('span', spec.tiles.attribution).innerHTML : '';
              L.tileLayer(spec.tiles.url, { attribution: attribution, maxZoom: 19 }).addTo(map);
            }
            L.control.scale({ metric: spec.units !== 'imperial', imperial: spec.units === 'imperial' }).addTo(map);
            var bounds = L.latLngBounds([]);
            (spec.lines || []).forEach(function (line) {
              var layer = L.polyline(line.points, {
                color: line.colour, weight: line.dashed ? 3 : 5, opacity: line.dashed ? 0.75 : 0.95,
                dashArray: line.dashed ? '6 8' : null, lineCap: 'round', lineJoin: 'round', interactive: false
              }).addTo(map);
              bounds.extend(layer.getBounds());
            });
            (spec.markers || []).forEach(function (marker) {
              var layer;
              if (marker.kind === 'mark') {
                layer = L.marker([marker.lat, marker.lon], {
                  icon: L.divIcon({ className: 'mark-icon', html: text('span', marker.label || ''), iconSize: [22, 22] }),
                  keyboard: false, interactive: false, title: marker.title || ''
                });
              } else {
                layer = L.circleMarker([marker.lat, marker.lon], {
                  radius: marker.kind === 'place' ? 8 : 9, color: '#ffffff', weight: 3,
                  fillColor: fills[marker.kind] || '#1d5fd6', fillOpacity: 1
                });
                if (marker.title) layer.bindPopup(popup(marker));
              }
              layer.addTo(map);
              bounds.extend([marker.lat, marker.lon]);
            });
            if (bounds.isValid()) map.fitBounds(bounds, { padding: [28, 28], maxZoom: 16 });
            else map.setView([20, 0], 2);
            if (spec.pick) {
              map.on('click', function (event) {
                var form = document.getElementById(spec.pick.form);
                if (!form) return;
                var point = event.latlng.wrap();
                form.elements[spec.pick.lat].value = point.lat.toFixed(6);
                form.elements[spec.pick.lon].value = point.lng.toFixed(6);
                if (form.requestSubmit) form.requestSubmit(); else form.submit();
              });
            }
          }

          document.querySelectorAll('[data-map]').forEach(drawMap);
        })();
        """#
}
