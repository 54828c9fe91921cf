"""The web app in real headless Chromium (run by scripts/browser-tests, which starts the service).

Every page loads without script errors or Content-Security-Policy violations (read from the browser log); sign-in
is required and then works; the run page shows the route on a map and the splits; start, pause, resume and stop
from the buttons change the live card and the history; flyers near a typed position come nearest first; a flyer
whose title is a script shows as text; uploads show their errors line by line; at 390 px the run page's splits and
device-comparison tables fit their card; the Lap button's lap shows at once on the card and the run page, a device
run's page lists its laps, and gear shows on the run page and /records; screenshots at 1280 and 390 px are taken, checked to be non-blank and saved.
Ends with 'N passed, N failed'.
"""
import argparse
import base64
import json
import os
import re
import struct
import sys
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
import zlib

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

parser = argparse.ArgumentParser()
parser.add_argument("--url", required=True)
parser.add_argument("--token", required=True)
parser.add_argument("--screenshots", required=True)
parser.add_argument("--work", required=True)
args = parser.parse_args()
BASE = args.url


def fetch(path):
    """The body of `path` (the service also takes the token as a bearer token on pages)."""
    request = urllib.request.Request(BASE + path, headers={"Authorization": "Bearer " + args.token})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read()


def api(path):
    return json.loads(fetch(path))


options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900",
             "--hide-scrollbars", "--disable-extensions", "--no-first-run"]:
    options.add_argument(flag)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_page_load_timeout(20)

results = []


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def wait(condition, message, timeout=10):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda _: condition())
    except TimeoutException:
        raise AssertionError("timed out waiting until " + message)


def problems_in_log():
    """Errors the page caused: script errors, failed requests, CSP violations."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def load(path):
    driver.get(BASE + path)
    wait(lambda: driver.execute_script("return document.readyState") == "complete", path + " to load")
    time.sleep(0.3)  # deferred scripts and the first map drawing
    problems = problems_in_log()
    check(not problems, path + ": the browser reported " + "; ".join(problems))


def test(name):
    def register(body):
        results.append((name, body))
        return body
    return register


def live_state():
    return driver.find_element(By.CSS_SELECTOR, "[data-refresh='/now/run']").get_attribute("data-state")


# --- PNG check without extra packages: decode enough to count distinct colours. ---
def png_colours(data):
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "the screenshot is not a PNG")
    position, chunks, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, colour_type = header[0], header[1], header[2], header[3]
    check(depth == 8 and colour_type in (2, 6), "unexpected PNG format")
    channels = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    previous = bytearray(stride)
    colours = set()
    offset = 0
    for row in range(height):
        kind = raw[offset]
        line = bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + predictor) & 255
        if row % 7 == 0:
            for x in range(0, stride, channels * 5):
                colours.add(bytes(line[x:x + 3]))
        previous = line
    return len(colours)


def screenshot(name, width):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.refresh()
    wait(lambda: driver.execute_script("return document.readyState") == "complete", name + " to load")
    time.sleep(0.6)
    overflow = driver.execute_script("return document.documentElement.scrollWidth")
    check(overflow <= width, "%s at %d px: the page is %d px wide (it must not scroll sideways)" % (name, width, overflow))
    height = min(driver.execute_script("return document.documentElement.scrollHeight"), 5000)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    time.sleep(0.4)
    data = driver.get_screenshot_as_png()
    path = os.path.join(args.screenshots, "%s-%d.png" % (name, width))
    with open(path, "wb") as file:
        file.write(data)
    colours = png_colours(data)
    check(colours > 12, "%s is blank or nearly so (%d colours)" % (path, colours))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    problems = problems_in_log()
    check(not problems, name + " at %d px: the browser reported " % width + "; ".join(problems))


state = {}


@test("pages redirect to sign-in; a wrong token is refused; the right one signs in with an HttpOnly, SameSite=Strict cookie")
def sign_in():
    driver.get(BASE + "/runs?q=edge")
    check("/signin" in driver.current_url, "expected the sign-in page, got " + driver.current_url)
    field = driver.find_element(By.ID, "token")
    check(driver.find_element(By.CSS_SELECTOR, "label[for=token]").text == "Access token", "the token field has no label")
    field.send_keys("wrong")
    field.submit()
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, "[role=alert]"), "the wrong token is refused")
    driver.get_log("browser")  # the 401 of the refused sign-in is expected
    driver.find_element(By.ID, "token").send_keys(args.token)
    driver.find_element(By.ID, "token").submit()
    wait(lambda: driver.current_url.endswith("/runs?q=edge"), "sign-in returns to the page asked for")
    cookie = next(c for c in driver.get_cookies() if c["name"] == "meridian_session")
    check(cookie["httpOnly"] and cookie.get("sameSite") == "Strict", "cookie flags: %r" % cookie)
    check(driver.execute_script("return document.cookie") == "", "the session cookie is readable by scripts")


PAGE_SIZE = "return performance.getEntriesByType('navigation')[0].decodedBodySize"


@test("every page loads without script errors or policy violations, within 150 KB of HTML, CSS and script")
def pages():
    runs = api("/v1/runs?limit=5&q=Edge%20705")["runs"]
    check(runs, "the seeded run is missing")
    state["run"] = runs[0]
    weights = []
    assets = sum(len(fetch(link)) for link in ["/assets/app.css", "/assets/app.js"])
    for path in ["/", "/runs", "/runs/" + runs[0]["id"], "/records", "/fitness", "/heatmap", "/flyers", "/flyers?lat=49.43&lon=11.127", "/devices"]:
        load(path)
        check(driver.find_element(By.TAG_NAME, "h1").text, path + " has no heading")
        weight = driver.execute_script(PAGE_SIZE) + assets
        check(0 < weight <= 150 * 1024, "%s weighs %d bytes of HTML, CSS and script" % (path, weight))
        weights.append("%s %.1f KB" % (path.split("?")[0] if len(path) < 12 else path[:12] + "…", weight / 1024))
    print("     page weight (HTML + CSS + script, Leaflet aside): " + ", ".join(weights))


@test("the run page shows the route on a map, km marks, the charts and the splits")
def run_page():
    load("/runs/" + state["run"]["id"])
    wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".leaflet-overlay-pane path")) > 5, "the route is drawn")
    marks = driver.find_elements(By.CSS_SELECTOR, ".mark-icon")
    check(len(marks) >= int(state["run"]["distance_m"] // 1000) > 0, "%d km marks for %.0f m" % (len(marks), state["run"]["distance_m"]))
    check(driver.find_elements(By.CSS_SELECTOR, ".leaflet-control-scale"), "no scale bar")
    check(not driver.find_elements(By.CSS_SELECTOR, ".leaflet-tile"), "tiles were requested without web.tile_url")
    rows = driver.find_elements(By.CSS_SELECTOR, "#splits-title ~ .table-wrap tbody tr")
    check(len(rows) >= int(state["run"]["distance_m"] // 1000), "%d split rows" % len(rows))
    check(len(driver.find_elements(By.CSS_SELECTOR, "figure.chart svg")) >= 2, "the elevation and pace charts are missing")
    html = fetch("/runs/" + state["run"]["id"]).decode()
    picture = re.search(r'<noscript><img src="([^"]+)"', html)
    check(picture, "no picture for browsers without JavaScript")
    check(fetch(picture.group(1)).startswith(b"<svg"), "the route picture is not an SVG")


NARROW_TABLES = """return Array.from(arguments[0]).map(function (selector) {
    var wrap = document.querySelector(selector);
    if (!wrap) { return [selector, -1, -1, -1]; }
    var table = wrap.querySelector("table");
    return [selector, wrap.scrollWidth, wrap.clientWidth, Math.ceil(table.getBoundingClientRect().right)];
});"""


@test("at 390 px the run page's splits (with heart rate) and device-comparison tables fit without scrolling sideways")
def narrow_run_tables():
    runs = api("/v1/runs?q=Fenix%202")["runs"]
    check(runs and runs[0]["device_distance_m"], "the seeded device run is missing")
    load("/runs/" + runs[0]["id"])
    width = 390
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": True})
    driver.refresh()
    wait(lambda: driver.execute_script("return document.readyState") == "complete", "the run page to load")
    check(driver.find_elements(By.XPATH, "//th[text()='Heart rate']"), "the splits have no heart-rate column")
    tables = driver.execute_script(NARROW_TABLES, ["#splits-title ~ .table-wrap", "#quality-title ~ .table-wrap"])
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    check(all(scroll >= 0 for _, scroll, _, _ in tables), "a table is missing: %r" % tables)
    wide = ["%s is %d px wide in a %d px box, its right edge at %d px" % (selector, scroll, client, right)
            for selector, scroll, client, right in tables if scroll > client or right > width]
    check(not wide, "at %d px: " % width + "; ".join(wide))
    screenshot("run-device", width)


@test("at 390 px the records table fits its card, a run named after its file included, with every figure shown")
def narrow_records_table():
    # A FIT file imported without --name is named after the file: one long word that cannot wrap at a space.
    run = api("/v1/runs?q=Fenix%202")["runs"][0]
    def rename(name):
        request = urllib.request.Request(
            BASE + "/v1/runs/" + run["id"], data=json.dumps({"name": name}).encode(), method="PATCH",
            headers={"Authorization": "Bearer " + args.token, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            check(response.status == 200, "renaming the run answered %d" % response.status)
    rename("fitparse__activity-small-fenix2-run")
    try:
        load("/records")
        width = 390
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": True})
        driver.refresh()
        wait(lambda: driver.execute_script("return document.readyState") == "complete", "the records page to load")
        tables = driver.execute_script(NARROW_TABLES, ["#current-title ~ .table-wrap", "#progress-title ~ .table-wrap"])
        text = driver.find_element(By.CSS_SELECTOR, "#current-title ~ .table-wrap").text
        screenshot("records-narrow", width)
        check(all(scroll >= 0 for _, scroll, _, _ in tables), "a table is missing: %r" % tables)
        wide = ["%s is %d px wide in a %d px box, its right edge at %d px" % (selector, scroll, client, right)
                for selector, scroll, client, right in tables if scroll > client or right > width]
        check(not wide, "at %d px: " % width + "; ".join(wide))
        check("/km" in text and "fitparse__activity-small-fenix2-run" in text,
              "the narrow records table does not show each record's pace and run: " + text)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        rename(run["name"])


@test("start, then pause and resume from the buttons change the live card")
def live_start():
    load("/")
    check(live_state() == "idle", "a run is already active")
    driver.find_element(By.ID, "run-name").send_keys("Browser lap")
    driver.find_element(By.CSS_SELECTOR, "form[data-api] button[type=submit]").click()
    wait(lambda: live_state() == "tracking", "the card shows the tracking run")
    check(driver.find_element(By.ID, "live-title").text == "Browser lap", "the run's name is not shown")
    first = driver.find_element(By.ID, "run-timer").text
    wait(lambda: driver.find_element(By.ID, "run-timer").text != first, "the timer moves on", timeout=8)
    events = [line for line in fetch("/metrics").decode().splitlines() if 'route="/v1/events"' in line and 'status="200"' in line]
    check(events, "the page did not open /v1/events")
    driver.find_element(By.XPATH, "//button[text()='Pause']").click()
    wait(lambda: live_state() == "paused", "the card shows the pause")
    check(api("/v1/runs/active")["run"]["state"] == "paused", "the service did not pause")
    driver.find_element(By.XPATH, "//button[text()='Resume']").click()
    wait(lambda: live_state() == "tracking", "the card shows the run again")
    state["started"] = time.time()


@test("the Lap button stores a lap the card shows at once; a device run's page lists its laps; gear on the run page and /records")
def laps_and_gear():
    load("/")
    check(live_state() == "tracking", "the run is not tracking: " + live_state())
    run_id = api("/v1/runs/active")["run"]["id"]
    check(not driver.find_element(By.ID, "run-last-lap").is_displayed(), "a last lap is shown before the first press")
    driver.find_element(By.ID, "lap-button").click()
    wait(lambda: driver.find_element(By.ID, "run-last-lap").is_displayed()
         and "lap 1:" in driver.find_element(By.ID, "run-last-lap").text, "the card shows the lap just closed")
    check(driver.find_element(By.ID, "run-lap").text.startswith("2:"), "the lap in progress is not the second")
    laps = api("/v1/runs/" + run_id)["laps"]
    check(len(laps) == 1 and laps[0]["trigger"] == "manual", "the stored laps: %r" % laps)
    for width in (1280, 390):
        screenshot("now-lap", width)
    load("/runs/" + run_id)
    check(len(driver.find_elements(By.CSS_SELECTOR, "#laps-title ~ .table-wrap tbody tr")) == 1, "the live run's page lists no lap")

    device = api("/v1/runs?q=Fenix%202")["runs"][0]
    device_laps = api("/v1/runs/" + device["id"])["laps"]
    check(len(device_laps) > 1, "the Fenix 2 run has %d laps" % len(device_laps))
    for method, path, body in [
            ("POST", "/v1/gear", {"name": "Pegasus 40", "activity": "run", "start_distance_m": 795000,
                                  "retire_distance_m": 800000, "default": True}),
            ("POST", "/v1/gear", {"name": "Gravel bike", "activity": "ride", "retire_distance_m": 15000000}),
            ("PUT", "/v1/runs/%s/gear" % device["id"], {"gear_id": 1})]:
        request = urllib.request.Request(BASE + path, data=json.dumps(body).encode(), method=method, headers={
            "Authorization": "Bearer " + args.token, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            check(response.status in (200, 201), "%s %s answered %d" % (method, path, response.status))
    load("/runs/" + device["id"])
    rows = driver.find_elements(By.CSS_SELECTOR, "#laps-title ~ .table-wrap tbody tr")
    check(len(rows) == len(device_laps), "%d lap rows for %d laps" % (len(rows), len(device_laps)))
    check("Pegasus 40" in driver.find_element(By.ID, "run-gear").text, "the run page does not name its gear")
    check("past its retirement distance of 800 km" in driver.find_element(By.ID, "gear-notice").text,
          "the run page does not say the run took the shoes past their retirement distance")
    for width in (1280, 390):
        screenshot("run-laps", width)
    load("/records")
    section = driver.find_element(By.ID, "gear")
    check("Pegasus 40" in section.text and "Gravel bike" in section.text and "past its retirement distance" in section.text,
          "the records page's gear: " + section.text)
    for width in (1280, 390):
        screenshot("records-gear", width)


@test("flyers near a typed position come nearest first, with distances and map links")
def flyers_near():
    load("/flyers")
    driver.find_element(By.ID, "lat").send_keys("49.4300")
    driver.find_element(By.ID, "lon").send_keys("11.1270")
    driver.find_element(By.CSS_SELECTOR, "#near-form button[type=submit]").click()
    wait(lambda: "lat=49.43" in driver.current_url, "the search is submitted")
    titles = [element.text for element in driver.find_elements(By.CSS_SELECTOR, ".flyers .title")]
    check(titles[:4] == ["Bakery on the corner", "<script>window.hacked = 1; alert(1)</script>", "Farmers market", "Bike repair"],
          "order: %r" % titles)
    distances = [element.text.split("\n")[0] for element in driver.find_elements(By.CSS_SELECTOR, ".flyers .distance")]
    check(distances[0].endswith(" m") and distances[-1].endswith(" km"), "distances: %r" % distances)
    links = driver.find_elements(By.PARTIAL_LINK_TEXT, "Open in Maps")
    check(links and links[0].get_attribute("href").startswith("https://maps.apple.com/"), "no map link in the configured style")
    wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".leaflet-interactive")) >= 4, "the flyers are on the map")


@test("a flyer titled <script> shows as text and runs nothing, on the page and in its map popup")
def flyer_xss():
    try:
        driver.switch_to.alert
        raise AssertionError("an alert opened")
    except NoAlertPresentException:
        pass
    check(driver.execute_script("return window.hacked === undefined"), "a script from a flyer ran")
    source = driver.page_source
    check("<script>window.hacked" not in source, "the title reached the page unescaped")
    markers = driver.find_elements(By.CSS_SELECTOR, "path.leaflet-interactive")
    for marker in markers:
        driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", marker)
        time.sleep(0.1)
    check(driver.execute_script("return window.hacked === undefined"), "a popup ran a flyer's script")
    check(not problems_in_log(), "errors after opening the popups")


@test("an uploaded file with errors lists them line by line and imports nothing; a good one imports")
def flyer_upload():
    bad = os.path.join(args.work, "bad.csv")
    with open(bad, "w") as file:
        file.write("id,title,lat,lon\nok,Fine,49.43,11.12\nb1,Wrong,120,11.12\nb2,,49.43,11.12\nb3,Not a number,abc,11.12\n")
    load("/flyers")
    driver.find_element(By.ID, "file").send_keys(bad)
    driver.find_element(By.XPATH, "//button[text()='Import']").click()
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, "ul.errors li"), "the errors are listed")
    errors = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "ul.errors li")]
    check(len(errors) == 3 and errors[0].startswith("line 3") and errors[2].startswith("line 5"), "errors: %r" % errors)
    driver.get_log("browser")  # the 400 answer to the bad file is expected
    check(api("/v1/flyers?limit=200")["items"].__len__() == 4, "a bad file imported something")
    good = os.path.join(args.work, "good.csv")
    with open(good, "w") as file:
        file.write("id,title,lat,lon,category\nnew1,Book swap,49.431,11.126,books\nnew2,Yoga in the park,49.432,11.125,sport\n")
    driver.find_element(By.ID, "file").send_keys(good)
    driver.find_element(By.XPATH, "//button[text()='Import']").click()
    wait(lambda: "2 flyers were imported" in driver.page_source, "the import is confirmed")
    check(len(api("/v1/flyers?limit=200")["items"]) == 6, "the good file was not imported")


def post_owntracks(name, key):
    """The status of one OwnTracks location posted as device `name` with `key`."""
    body = json.dumps({"_type": "location", "lat": 49.43, "lon": 11.12, "tst": int(time.time()), "acc": 5}).encode()
    auth = base64.b64encode(("%s:%s" % (name, key)).encode()).decode()
    request = urllib.request.Request(BASE + "/v1/feeds/owntracks", data=body, method="POST",
                                     headers={"Authorization": "Basic " + auth, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@test("Devices: adding a phone shows its key and a set-up QR code; it posts; revoking it stops its feed")
def devices_page():
    name = "Zoë's phone <b>"
    load("/devices")
    driver.find_element(By.ID, "device-name").send_keys(name)
    driver.find_element(By.XPATH, "//button[text()='Add']").click()
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#device-qr svg path"), "the QR code is shown")
    check(not problems_in_log(), "the new device's page reported errors")
    key = driver.find_element(By.ID, "device-key").text
    check(len(key) >= 43, "key: %r" % key)
    check(driver.find_element(By.ID, "owntracks-link").get_attribute("href").startswith("owntracks:///config?inline="),
          "no OwnTracks set-up link")
    check("<b>" not in driver.find_element(By.ID, "added-title").get_attribute("innerHTML").replace("&lt;b&gt;", ""),
          "the device name reached the page unescaped")
    check(post_owntracks(name, key) == 200, "the new key does not post")
    load("/devices")
    row = driver.find_element(By.CSS_SELECTOR, "tr[data-device=\"%s\"]" % name)
    check("receiving" in row.text, "the row does not show the fix: " + row.text)
    row.find_element(By.XPATH, ".//button[starts-with(., 'Revoke')]").click()
    wait(lambda: "was removed" in driver.page_source, "the removal is confirmed")
    check(not driver.find_elements(By.CSS_SELECTOR, "tr[data-device]"), "the revoked phone is still listed")
    check(post_owntracks(name, key) == 401, "a revoked key still posts")


@test("the heatmap draws the seeded routes as a picture from the service; goals show their progress on / and /records")
def heatmap_and_goals():
    load("/heatmap?activity=run")
    image = driver.find_element(By.CSS_SELECTOR, ".heatmap img")
    wait(lambda: driver.execute_script("return arguments[0].complete", image), "the heatmap picture loads", timeout=60)
    # A srcset candidate's natural width is corrected by its density (800w in a 1000 px slot reads 1000): what shows is
    # told by the candidate chosen, the 800 px picture in a wide window.
    shown = driver.execute_script("return [arguments[0].naturalWidth, arguments[0].currentSrc]", image)
    check(shown[0] > 0 and "width=400" not in shown[1], "the heatmap picture is not the 800 px one: %r" % shown)
    check(b'width="800"' in fetch(urllib.parse.urlparse(shown[1]).path + "?activity=run")[:2000],
          "the picture is not drawn 800 px wide")
    check(image.size["width"] <= 1280, "the picture is wider than the window")
    svg = fetch("/heatmap.svg?activity=run").decode()
    check("data:image/png;base64," in svg and "<title>Heatmap of " in svg, "the picture: " + svg[:300])
    check(len(re.findall(r'https?://', svg)) == 1, "the picture refers to something outside it")
    body = json.dumps({"period": "year", "activity": "run", "distance_m": 500000}).encode()
    request = urllib.request.Request(BASE + "/v1/goals", data=body, method="POST", headers={
        "Authorization": "Bearer " + args.token, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        check(response.status == 201, "the goal is not stored")
    for path in ["/", "/records"]:
        load(path)
        card = driver.find_element(By.CSS_SELECTOR, ".goals")
        check("500 km a year (run)" in card.text and "of 500 km" in card.text, path + " goals: " + card.text)


@test("screenshots at 1280 and 390 px are not blank and nothing scrolls sideways")
def screenshots():
    for name, path in [("now", "/"), ("runs", "/runs"), ("run", "/runs/" + state["run"]["id"]), ("records", "/records"),
                       ("fitness", "/fitness"), ("heatmap", "/heatmap"), ("flyers", "/flyers?lat=49.4300&lon=11.1270"),
                       ("devices", "/devices")]:
        driver.get(BASE + path)
        for width in (1280, 390):
            screenshot(name, width)


@test("stop from the button saves the run: the card offers a new start and the history lists it")
def live_stop():
    load("/")
    check(live_state() == "tracking", "the run is not tracking any more: " + live_state())
    # A run is saved from 60 s and 100 m of timer time; the sample replay gets there in about a minute.
    deadline = time.time() + 120
    while time.time() < deadline:
        run = api("/v1/runs/active")["run"]
        if run["timer_s"] > 62 and run["distance_m"] > 120:
            break
        time.sleep(1)
    driver.find_element(By.XPATH, "//button[text()='Stop']").click()
    wait(lambda: live_state() == "idle", "the card offers a new start")
    wait(lambda: "Browser lap" in driver.find_element(By.CSS_SELECTOR, "[data-refresh='/now/run']").text, "the last run is named")
    load("/runs")
    names = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "table.runs a.name")]
    check("Browser lap" in names and "Edge 705 laps" in names, "history: %r" % names)


passed = failed = 0
try:
    for name, body in results:
        started = time.time()
        try:
            body()
            passed += 1
            print("ok   %s (%.1f s)" % (name, time.time() - started))
        except Exception as error:
            failed += 1
            print("FAIL %s: %s" % (name, error))
            if not isinstance(error, AssertionError):
                traceback.print_exc()
finally:
    driver.quit()
print("screenshots: " + args.screenshots)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
