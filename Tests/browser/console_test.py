#!/usr/bin/env python3
"""The console (/console) in a real browser: headless Chromium (Debian's chromium and
chromium-driver) driven by selenium, with JavaScript on and off, axe-core on every page
visited with JavaScript on, and plain HTTP for what a browser hides (status codes, headers,
forged posts). Run by Deploy/local/console-browser-test.sh, which seeds the demo customers
and makes the console users.

Settings (environment, or the options of the same name):
  CONSOLE_BASE_URL     subscriptiond's base URL, e.g. http://127.0.0.1:19500
  CONSOLE_USERS_FILE   JSON {"viewer"|"support"|"admin": {"name", "password"}}
  CONSOLE_TRUTH_FILE   appstore-sim's truth (the demo customers' entitlements)
  CONSOLE_ADMIN_TOKEN  the API's admin token, to cross-check what the console did
  CONSOLE_SCREENSHOTS  where NN-what.png go (default .build/console-screenshots)
  --only NAME[,NAME]   run only these tests (names without the test_ prefix)

Prints one line per failure ("FAIL test: reason"), "note test: …" for what the contract
leaves open (not failures), the path of every screenshot, and ends with "browser: N passed,
N failed"; exits 1 when anything failed."""
import argparse
import base64
import datetime
import html.parser
import http.client
import json
import os
import re
import sys
import time
import traceback
import urllib.parse

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM = "/usr/bin/chromium"
WAIT_SECONDS = 20
NAV_LINKS = ["Overview", "Customers", "Notifications", "Webhooks", "Refund requests", "Products"]
ENTITLEMENT_COLUMNS = ["Entitlement", "Active", "Source", "Product", "Until"]
CUSTOMER_TABLES = ["entitlements", "subscriptions", "purchases", "eligibility", "timeline"]

# Demo customers (appstore-sim --demo): each test its own, so no test sees another's grant.
FLOW_A_CUSTOMER = "alice-trial-renews"  # pro active (subscription); granted news
FLOW_B_CUSTOMER = "hank-refund"  # nothing active (refunded); granted pro for good, then revoked
VIEWER_CUSTOMER = "pam-lifetime"  # pro active (non_consumable); nobody may change it
ADMIN_DELETES = "frank-trial-cancels"  # deleted by the admin
UNKNOWN_CUSTOMER = "nobody-by-this-name-41"
LONG_HISTORY_CUSTOMER = "olga-paid-over-a-year"  # over a year of renewals: a timeline of several pages
# tess-pass-expired's receipt is proven for an app user named after ivy-upgrades' original
# transaction id, so that a search finds several (ambiguous_id).


# ---------------------------------------------------------------------------------------------
# Bookkeeping: failures, notes, screenshots.


class Abort(Exception):
    """A step the rest of a test depends on failed; its message is the failure line."""


class Run:
    def __init__(self, settings):
        self.s = settings
        self.test = "-"
        self.label = "-"  # what names a test's screenshots: "flow A", "viewer"
        self.role = "support"  # whose pages the test reads
        self.failures = []
        self.notes = []
        self.noted = set()
        self.shots = 0
        self.axed = set()

    def fail(self, message):
        line = f"FAIL {self.test}: {message}"
        self.failures.append(line)
        print(line, flush=True)

    def check(self, condition, message):
        if not condition:
            self.fail(message)
        return bool(condition)

    def require(self, condition, message):
        if not condition:
            raise Abort(message)

    def note(self, message, once=None):
        """Something the contract leaves open, told once per ONCE key (default: the message)."""
        key = once or message
        if key in self.noted:
            return
        self.noted.add(key)
        line = f"note {self.test}: {message}"
        self.notes.append(line)
        print(line, flush=True)

    def say(self, message):
        print(f"  {self.test}: {message}", flush=True)

    def screenshot(self, driver, what):
        """Saves the whole page (not only the window) as NN-what.png and prints its path."""
        self.shots += 1
        slug = re.sub(r"[^a-z0-9]+", "-", what.lower()).strip("-")
        path = os.path.join(self.s.screenshots, f"{self.shots:02d}-{slug}.png")
        try:
            metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
            size = metrics.get("cssContentSize") or metrics["contentSize"]
            width, height = max(1, min(int(size["width"]), 2400)), max(1, min(int(size["height"]), 8000))
            shot = driver.execute_cdp_cmd(
                "Page.captureScreenshot",
                {"format": "png", "captureBeyondViewport": True,
                 "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
            with open(path, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
        except WebDriverException:
            driver.save_screenshot(path)
        print(f"  screenshot {path}", flush=True)
        return path


# ---------------------------------------------------------------------------------------------
# HTML without a browser: a small tree, enough to read forms, headings and tables.

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def walk(self):
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.walk()

    def find_all(self, tag=None, **attrs):
        return [n for n in self.walk() if (tag is None or n.tag == tag)
                and all(n.attrs.get(k.rstrip("_").replace("_", "-")) == v for k, v in attrs.items())]

    def find(self, tag=None, **attrs):
        found = self.find_all(tag, **attrs)
        return found[0] if found else None

    def text(self):
        parts = []
        for child in self.children:
            parts.append(child.text() if isinstance(child, Node) else child)
        return " ".join("".join(parts).split())


class TreeBuilder(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, [(k, v if v is not None else "") for k, v in attrs], self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, [(k, v or "") for k, v in attrs], self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse(markup):
    builder = TreeBuilder()
    builder.feed(markup)
    builder.close()
    return builder.root


def read_table(table):
    """A table's column names and its body rows: [{"cells": [text...], "times": [...], "links": [...]}]."""
    rows = [tr for tr in table.find_all("tr")]
    headers = []
    head = table.find("thead")
    if head is not None:
        headers = [th.text() for th in head.find_all("th")]
        rows = [tr for tr in rows if not _inside(tr, head)]
    elif rows and rows[0].find_all("th") and not rows[0].find_all("td"):
        headers = [th.text() for th in rows[0].find_all("th")]
        rows = rows[1:]
    body = []
    for tr in rows:
        cells = [c for c in tr.children if isinstance(c, Node) and c.tag in ("td", "th")]
        body.append({"cells": [c.text() for c in cells],
                     "times": [t.attrs.get("datetime", "") for t in tr.find_all("time") if t.attrs.get("datetime")],
                     "links": [a.attrs.get("href", "") for a in tr.find_all("a")]})
    return headers, body


def _inside(node, ancestor):
    while node is not None:
        if node is ancestor:
            return True
        node = node.parent
    return False


# ---------------------------------------------------------------------------------------------
# HTTP without a browser: status codes, headers, cookies, forged posts. Never follows redirects.


class Response:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body
        self._doc = None

    def header(self, name):
        for k, v in self.headers:
            if k.lower() == name.lower():
                return v
        return None

    @property
    def doc(self):
        if self._doc is None:
            self._doc = parse(self.body)
        return self._doc

    def location_path(self):
        location = self.header("Location") or ""
        return urllib.parse.urlsplit(location).path


class Client:
    """One visitor: a cookie jar and plain requests."""

    def __init__(self, base, cookies=None):
        self.base = urllib.parse.urlsplit(base)
        self.cookies = dict(cookies or {})

    @classmethod
    def from_driver(cls, base, driver):
        return cls(base, {c["name"]: c["value"] for c in driver.get_cookies()})

    def request(self, method, path, form=None, headers=None):
        connection = http.client.HTTPConnection(self.base.hostname, self.base.port, timeout=30)
        all_headers = dict(headers or {})
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
            all_headers["Origin"] = f"{self.base.scheme}://{self.base.netloc}"
        try:
            connection.request(method, path, body=body, headers=all_headers)
            answer = connection.getresponse()
            raw = answer.read().decode("utf-8", "replace")
            headers_out = answer.getheaders()
        finally:
            connection.close()
        for name, value in headers_out:
            if name.lower() == "set-cookie":
                pair = value.split(";", 1)[0]
                if "=" in pair:
                    k, v = pair.split("=", 1)
                    if v == "" or re.search(r"max-age=0\b|expires=thu, 01 jan 1970", value, re.I):
                        self.cookies.pop(k.strip(), None)
                    else:
                        self.cookies[k.strip()] = v.strip()
        return Response(answer.status, headers_out, raw)

    def get(self, path):
        return self.request("GET", path)

    def post(self, path, form):
        return self.request("POST", path, form=form)

    def sign_in(self, user):
        page = self.get("/console/sign-in")
        token = csrf_token(page.doc)
        return self.post("/console/sign-in", {"name": user["name"], "password": user["password"], "csrf_token": token or ""})


def csrf_token(doc):
    field = doc.find("input", name="csrf_token")
    return field.attrs.get("value") if field is not None else None


def api(run, method, path, body=None):
    """The API with the admin token: (status, JSON or None)."""
    base = urllib.parse.urlsplit(run.s.base_url)
    connection = http.client.HTTPConnection(base.hostname, base.port, timeout=30)
    headers = {"Authorization": f"Bearer {run.s.admin_token}"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        answer = connection.getresponse()
        raw = answer.read()
    finally:
        connection.close()
    try:
        return answer.status, json.loads(raw) if raw else None
    except ValueError:
        return answer.status, None


def lengthen_history(run, app_user_id, cycles):
    """Grants and revokes through the API, CYCLES times: each adds audit rows and webhook
    events to the customer's timeline, so it runs over a page."""
    quoted = urllib.parse.quote(app_user_id, safe="")
    for i in range(cycles):
        status, grant = api(run, "POST", f"/v1/subscribers/{quoted}/grants",
                            {"entitlement": "news", "expires_at": None, "reason": f"browser test: a longer timeline ({i + 1})"})
        run.require(status in (200, 201) and grant and "grant_id" in grant, f"POST /v1/subscribers/{app_user_id}/grants answered {status} {grant}")
        status, _ = api(run, "DELETE", f"/v1/subscribers/{quoted}/grants/{grant['grant_id']}")
        run.require(status in (200, 204), f"DELETE /v1/subscribers/{app_user_id}/grants/{grant['grant_id']} answered {status}")


def ambiguous_id(run):
    """An id the search finds twice: tess-pass-expired's receipt proven for an app user named
    after ivy-upgrades' original transaction id (tess's pass moves to that user). None when
    the truth lacks them."""
    tess, ivy = run.s.truth.get("tess-pass-expired"), run.s.truth.get("ivy-upgrades")
    if not tess or not ivy or not ivy.get("subscriptions"):
        run.note("the truth lacks tess-pass-expired or ivy-upgrades: no search with several matches")
        return None
    otid = ivy["subscriptions"][0]["original_transaction_id"]
    status, body = api(run, "POST", "/v1/receipts", {"app_user_id": otid, "receipt_data": tess["receipt_data"],
                                                   "bundle_id": tess["bundle_id"]})
    run.require(status == 200, f"POST /v1/receipts (tess's receipt for the app user {otid}) answered {status}: {str(body)[:120]}")
    return otid


def api_subscriber(run, app_user_id):
    """The subscriber JSON from the API (the console must agree with it), or None."""
    status, body = api(run, "GET", "/v1/subscribers/" + urllib.parse.quote(app_user_id, safe=""))
    return body if status == 200 else None


# ---------------------------------------------------------------------------------------------
# The browser.


def browser(javascript=True):
    """Headless Chromium through Debian's chromedriver; without JavaScript when asked."""
    os.environ.setdefault("SE_OFFLINE", "true")  # Debian's browser and driver: Selenium Manager fetches nothing
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000",
                     "--lang=en-US", "--no-first-run", "--disable-extensions", "--disable-background-networking"):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    prefs = {"intl.accept_languages": "en-US"}
    if not javascript:
        prefs["profile.managed_default_content_settings.javascript"] = 2
    options.add_experimental_option("prefs", prefs)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    return driver


def path_of(driver):
    return urllib.parse.urlsplit(driver.current_url).path


def wait_loaded(driver):
    WebDriverWait(driver, WAIT_SECONDS, poll_frequency=0.1, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script("return document.readyState") == "complete")


# A browser between two pages answers WebDriver with these; the next page is on its way.
NAVIGATING = re.compile(r"does not belong to the document|stale element|frame detached|context was destroyed|No node with given id", re.I)


def navigate_and_wait(driver, action):
    """Runs ACTION (a click, back) and waits until another document has loaded: the old
    one's window carries a mark (WebDriver's own scripts run with the page's JavaScript off
    too), the next one does not."""
    mark = os.urandom(8).hex()  # new each time: back() may bring a page with an older mark from the cache
    driver.execute_script("window.__consoleTestMark = arguments[0]", mark)
    try:
        action()
    except WebDriverException as error:
        if not NAVIGATING.search(str(error)):
            raise
    WebDriverWait(driver, WAIT_SECONDS, poll_frequency=0.1, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script("return window.__consoleTestMark !== arguments[0] && document.readyState === 'complete'", mark))


def open_page(run, driver, path):
    driver.get(run.s.base_url + path)
    wait_loaded(driver)


def click_and_wait(driver, element):
    """Clicks a link or a form's button and waits for the next page to load."""
    navigate_and_wait(driver, element.click)


def page_doc(driver):
    return parse(driver.page_source)


def button(container, text):
    """The button (or submit input) whose text is TEXT, or None."""
    for b in container.find_elements(By.CSS_SELECTOR, "button, input[type=submit]"):
        label = (b.text or b.get_attribute("value") or "").strip()
        if " ".join(label.split()) == text:
            return b
    return None


def link(container, text):
    for a in container.find_elements(By.TAG_NAME, "a"):
        if " ".join(a.text.split()) == text:
            return a
    return None


def alert_texts(doc, role):
    return [p.text() for p in doc.find_all(role=role)]


def axe_script():
    """The newest axe-core installed: axe-selenium-python's own (axe-core 3.1.1 in its
    releases for Python < 3.12, which flags <div> groups in <dl>, valid HTML) or
    axe-core-python's (4.x); both from PyPI. Returns (path, version)."""
    import axe_selenium_python

    candidates = [os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")]
    try:
        import axe_core_python

        candidates.append(os.path.join(os.path.dirname(axe_core_python.__file__), "axe.min.js"))
    except ImportError:
        pass
    found = []
    for path in candidates:
        if os.path.exists(path):
            head = open(path, encoding="utf-8").read()
            match = re.search(r'version\s*=\s*"(\d+)\.(\d+)\.(\d+)"', head)
            version = tuple(int(x) for x in match.groups()) if match else (0, 0, 0)
            found.append((version, path))
    version, path = max(found)
    return path, ".".join(map(str, version))


def axe(run, driver, what, key=None):
    """axe-core on the page now shown (JavaScript on): one failure line per rule violated."""
    from axe_selenium_python import Axe

    url = urllib.parse.urlsplit(driver.current_url)
    key = key or url.path + ("?" + url.query if url.query else "")
    if key in run.axed:
        return
    run.axed.add(key)
    if not hasattr(run, "axe_script"):
        run.axe_script, version = axe_script()
        run.say(f"axe-core {version} ({run.axe_script})")
    checker = Axe(driver, run.axe_script)
    try:
        checker.inject()
        results = checker.run()
    except WebDriverException as error:
        run.fail(f"axe could not run on {key} ({what}): {str(error).splitlines()[0]}")
        return
    for v in results.get("violations", []):
        targets = [", ".join(n.get("target", [])) for n in v.get("nodes", [])]
        shown = "; ".join(targets[:4]) + (f"; … {len(targets) - 4} more" if len(targets) > 4 else "")
        run.fail(f"axe on {key} ({what}): {v['id']} ({v.get('impact')}) — {v.get('help', '')} — at {shown}")
    run.say(f"axe {key}: {len(results.get('violations', []))} violations, {len(results.get('passes', []))} rules passed")


def check_layout(run, driver, what, role):
    """What every signed-in page has: one h1, the Console nav (Keys for admin only), the
    sign-out form and <main id="main">. Returns the parsed page."""
    doc = page_doc(driver)
    h1s = doc.find_all("h1")
    if not h1s and doc.find("main") is None:
        status = Client.from_driver(run.s.base_url, driver).get(urllib.parse.urlsplit(driver.current_url)._replace(scheme="", netloc="").geturl()).status
        raise Abort(f"{what}: {path_of(driver)} is no console page (HTTP {status}; no <h1>, no <main>): {' '.join(doc.text().split())[:80]!r}")
    run.check(len(h1s) == 1, f"{what} ({path_of(driver)}): expected exactly one <h1>, found {len(h1s)}")
    navs = [n for n in doc.find_all("nav") if n.attrs.get("aria-label") == "Console"]
    if run.check(len(navs) == 1, f'{what}: expected one <nav aria-label="Console">, found {len(navs)}'):
        texts = [a.text() for a in navs[0].find_all("a")]
        missing = [t for t in NAV_LINKS if t not in texts]
        run.check(not missing, f"{what}: the Console nav lacks {missing} (links: {texts})")
        if role == "admin":
            run.check("Keys" in texts, f"{what}: the admin's Console nav lacks Keys (links: {texts})")
        else:
            run.check("Keys" not in texts, f"{what}: the {role}'s Console nav shows Keys (links: {texts})")
        extra = [t for t in texts if t not in NAV_LINKS + ["Keys"]]
        run.check(not extra, f"{what}: the Console nav has links no test visits: {extra}")
    sign_out = [f for f in doc.find_all("form")
                if f.attrs.get("action") == "/console/sign-out" and f.attrs.get("method", "").lower() == "post"]
    if run.check(sign_out, f'{what}: no <form method="post" action="/console/sign-out">'):
        labels = [b.text() or b.attrs.get("value", "") for b in sign_out[0].find_all("button") + sign_out[0].find_all("input", type="submit")]
        run.check("Sign out" in labels, f'{what}: the sign-out form has no "Sign out" button ({labels})')
    run.check(doc.find("main", id="main") is not None, f'{what}: no <main id="main">')
    return doc


def sign_in(run, driver, user, wrong_password_first=False, axe_it=False):
    """Signs USER in through the sign-in page (after a wrong password when asked); checks the
    form, the session cookie's flags, and that sign-in gives a new session cookie."""
    open_page(run, driver, "/console")
    run.require(path_of(driver) == "/console/sign-in",
                f"signed out, /console should lead to /console/sign-in, but the browser is at {path_of(driver)}")
    doc = page_doc(driver)
    form = next((f for f in doc.find_all("form") if f.attrs.get("action") == "/console/sign-in"), None)
    run.require(form is not None, 'the sign-in page has no <form action="/console/sign-in">')
    run.check(form.attrs.get("method", "").lower() == "post", f"the sign-in form's method is {form.attrs.get('method')!r}, not post")
    for field, kind in (("name", None), ("password", "password")):
        field_input = form.find("input", id=field)
        if run.check(field_input is not None, f'the sign-in form has no <input id="{field}">'):
            run.check(field_input.attrs.get("name") == field, f"the sign-in input #{field} is named {field_input.attrs.get('name')!r}")
            if kind:
                run.check(field_input.attrs.get("type") == kind, f"the sign-in input #{field} has type {field_input.attrs.get('type')!r}")
        run.check(doc.find("label", for_=field) is not None, f'the sign-in page has no <label for="{field}">')
    token = form.find("input", name="csrf_token")
    run.check(token is not None and token.attrs.get("type") == "hidden" and token.attrs.get("value"),
              "the sign-in form has no hidden csrf_token with a value")
    run.check(any(b.text() == "Sign in" and b.attrs.get("type") == "submit" for b in form.find_all("button")),
              'the sign-in form has no <button type="submit">Sign in</button>')

    def submit(password):
        driver.find_element(By.ID, "name").clear()
        driver.find_element(By.ID, "name").send_keys(user["name"])
        driver.find_element(By.ID, "password").clear()
        driver.find_element(By.ID, "password").send_keys(password)
        click_and_wait(driver, button(driver.find_element(By.CSS_SELECTOR, 'form[action="/console/sign-in"]'), "Sign in"))

    if wrong_password_first:
        submit(user["password"] + "-wrong")
        alerts = alert_texts(page_doc(driver), "alert")
        run.check(any("Wrong name or password" in a for a in alerts),
                  f'a wrong password: expected <p role="alert"> "Wrong name or password", saw alerts {alerts} at {path_of(driver)}')
        run.check(path_of(driver) == "/console/sign-in", f"after a wrong password the browser is at {path_of(driver)}, not the sign-in page")
        run.screenshot(driver, f"{run.label} wrong password")
        if axe_it:
            axe(run, driver, "sign-in after a wrong password", key="/console/sign-in (wrong password)")
    before = {c["name"]: c for c in driver.get_cookies()}
    submit(user["password"])
    run.require(path_of(driver) != "/console/sign-in",
                f"signing in as {user['name']} failed: still at /console/sign-in (alerts: {alert_texts(page_doc(driver), 'alert')})")
    after = {c["name"]: c for c in driver.get_cookies()}
    # The session cookie is what signing in set: a cookie that is new, or whose value changed
    # (one that kept its value from before sign-in would be a fixed session).
    session = [c for name, c in after.items() if name not in before or before[name]["value"] != c["value"]]
    run.check(session, f"session fixation: signing in set no new cookie value (cookies before {sorted(before)}, after {sorted(after)})")
    for c in session:
        run.check(c.get("httpOnly") is True, f"the session cookie {c['name']} is not HttpOnly")
        run.check(c.get("sameSite") == "Strict", f"the session cookie {c['name']} is SameSite={c.get('sameSite')}, not Strict")
    for c in after.values():
        if c not in session and (c.get("httpOnly") is not True or c.get("sameSite") != "Strict"):
            run.note(f"the cookie {c['name']} (kept from before sign-in) is httpOnly={c.get('httpOnly')}, SameSite={c.get('sameSite')}")
    run.say(f"signed in as {user['name']} (session cookie {[c['name'] for c in session]}; before sign-in: {sorted(before)})")
    return session


def sign_out(run, driver, role):
    """Signs out with the nav's button; /console then leads to the sign-in page again."""
    cookies_before = {c["name"]: c["value"] for c in driver.get_cookies()}
    form = driver.find_element(By.CSS_SELECTOR, 'form[action="/console/sign-out"]')
    click_and_wait(driver, button(form, "Sign out"))
    run.check(path_of(driver) == "/console/sign-in", f"after Sign out the browser is at {path_of(driver)}, not /console/sign-in")
    run.screenshot(driver, f"{run.label} signed out")
    open_page(run, driver, "/console")
    run.check(path_of(driver) == "/console/sign-in", f"after signing out, /console shows {path_of(driver)} instead of the sign-in page")
    old = Client(run.s.base_url, cookies_before).get("/console")
    if old.status != 303:
        run.note(f"the {role}'s session cookie from before sign-out still opens /console (HTTP {old.status})")


def entitlement_rows(run, doc, what):
    table = doc.find("table", id="entitlements")
    run.require(table is not None, f'{what}: no <table id="entitlements">')
    headers, rows = read_table(table)
    missing = [c for c in ENTITLEMENT_COLUMNS if c not in headers]
    run.check(not missing, f"{what}: #entitlements lacks the columns {missing} (has {headers})")
    index = {h: i for i, h in enumerate(headers)}
    result = {}
    for row in rows:
        cells = row["cells"]
        get = lambda column: cells[index[column]] if column in index and index[column] < len(cells) else ""
        if cells:
            result[get("Entitlement")] = {c: get(c) for c in ENTITLEMENT_COLUMNS}
    return result


def check_entitlements_match_truth(run, doc, customer, what):
    """Every entitlement of the simulator's truth for CUSTOMER, as the console shows it."""
    rows = entitlement_rows(run, doc, what)
    truth = run.s.truth.get(customer, {}).get("entitlements", {})
    for name, t in truth.items():
        row = rows.get(name)
        if not run.check(row is not None, f"{what}: no row for the entitlement {name} in #entitlements (rows: {sorted(rows)})"):
            continue
        shown = row["Active"].lower()
        if t["active"]:
            run.check(shown.startswith("yes"), f"{what}: {name} should be Active yes, shows {row['Active']!r}")
            run.check(t["source"].replace("_", " ") in row["Source"].replace("_", " ").lower(),
                      f"{what}: {name}'s Source should be {t['source']}, shows {row['Source']!r}")
            run.check(t["product_id"] in row["Product"], f"{what}: {name}'s Product should be {t['product_id']}, shows {row['Product']!r}")
        else:
            run.check(shown.startswith("no"), f"{what}: {name} should be Active no, shows {row['Active']!r}")
    return rows


def check_customer_page(run, driver, customer, what, role):
    doc = check_layout(run, driver, what, role)
    h1 = doc.find("h1")
    run.check(h1 is not None and customer in h1.text(), f"{what}: the h1 ({h1.text() if h1 else None!r}) does not name {customer}")
    for table in CUSTOMER_TABLES:
        run.check(doc.find("table", id=table) is not None, f'{what}: no <table id="{table}">')
    return doc


def check_timeline(run, driver, what, follow_older=True, screenshot=True, axe_it=False, quiet=False):
    """The timeline has rows, newest first; "Older items" (rel=next) leads to older ones."""
    doc = page_doc(driver)
    table = doc.find("table", id="timeline")
    run.require(table is not None, f'{what}: no <table id="timeline">')
    headers, rows = read_table(table)
    run.check(rows, f"{what}: the timeline has no rows")
    stamps = [row["times"][0] if row["times"] else _first_stamp(" ".join(row["cells"])) for row in rows]
    stamps = [s for s in stamps if s]
    if len(stamps) >= 2:
        normalized = [_normalize_stamp(s) for s in stamps]
        bad = [(a, b) for a, b in zip(normalized, normalized[1:]) if a < b]
        run.check(not bad, f"{what}: the timeline is not newest first ({bad[0][0]} before {bad[0][1]})" if bad else "")
    else:
        run.note(f"{what}: could not read the timeline's dates to check its order (columns {headers})")
    run.say(f"timeline: {len(rows)} rows, columns {headers}")
    older = driver.find_elements(By.CSS_SELECTOR, 'a[rel~="next"]')
    if older and follow_older:
        run.check(" ".join(older[0].text.split()) == "Older items", f'{what}: the rel="next" link reads {older[0].text!r}, not "Older items"')
        first_page = [r["cells"] for r in rows]
        click_and_wait(driver, older[0])
        doc2 = page_doc(driver)
        t2 = doc2.find("table", id="timeline")
        if run.check(t2 is not None, f"{what}: the older items page ({driver.current_url}) has no #timeline"):
            _, rows2 = read_table(t2)
            run.check(rows2, f"{what}: the older items page has no rows")
            run.check(not rows2 or [r["cells"] for r in rows2] != first_page, f"{what}: the older items page shows the same rows again")
            stamps2 = [_normalize_stamp(r["times"][0] if r["times"] else _first_stamp(" ".join(r["cells"])) or "") for r in rows2]
            if stamps and stamps2 and stamps2[0]:
                run.check(stamps2[0] <= _normalize_stamp(stamps[-1]), f"{what}: the older items page starts with {stamps2[0]}, newer than the first page's last {stamps[-1]}")
            run.say(f"older items: {len(rows2)} rows at {urllib.parse.urlsplit(driver.current_url).query}")
        if screenshot:
            run.screenshot(driver, f"{run.label} timeline older items")
        if axe_it:
            axe(run, driver, "the timeline's older items")
        navigate_and_wait(driver, driver.back)
    elif not older and not quiet:
        run.note(f"{what}: no \"Older items\" link ({len(rows)} timeline rows): nothing older to follow")


STAMP = re.compile(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?")


def _first_stamp(text):
    m = STAMP.search(text)
    return m.group(0) if m else None


def _normalize_stamp(stamp):
    return stamp.replace("T", " ").rstrip("Z")


def visit_first_detail(run, driver, what, selector):
    """Follows the first link SELECTOR finds on this page (a list's first item): the page it
    leads to is a console page, and passes axe. Comes back."""
    links = driver.find_elements(By.CSS_SELECTOR, selector)
    if not links:
        run.say(f"{what} ({path_of(driver)}): no item to open")
        return
    href = links[0].get_dom_attribute("href")
    click_and_wait(driver, links[0])
    detail = f"{what}: the page of its first item ({href})"
    check_layout(run, driver, detail, run.role)
    run.screenshot(driver, f"{run.label} {what} item")
    axe(run, driver, detail)
    navigate_and_wait(driver, driver.back)


def long_timeline(run, driver, flow, axe_it=False):
    """Olga's timeline runs over a page (50 items: over a year of renewals, and a few grants
    given and taken back through the API, once per run): "Older items" leads on."""
    if not getattr(run, "lengthened", False):
        lengthen_history(run, LONG_HISTORY_CUSTOMER, 12)
        run.lengthened = True
    open_page(run, driver, customer_path(LONG_HISTORY_CUSTOMER))
    check_customer_page(run, driver, LONG_HISTORY_CUSTOMER, "olga's page", "support")
    check_timeline(run, driver, "olga's timeline", axe_it=axe_it)
    run.screenshot(driver, f"{flow} long timeline")
    if axe_it:
        axe(run, driver, "customer with a long timeline")


def grant(run, driver, entitlement, until, reason, what):
    """Fills and submits #grant-form; returns the page's status messages."""
    form = driver.find_element(By.ID, "grant-form")
    run.check((form.get_dom_attribute("method") or "").lower() == "post", f"{what}: #grant-form's method is not post")
    doc = page_doc(driver)
    for field in ("grant-entitlement", "grant-until", "grant-reason"):
        run.check(doc.find("label", for_=field) is not None, f'{what}: no <label for="{field}">')
    select_el = form.find_element(By.ID, "grant-entitlement")
    run.check(select_el.tag_name == "select" and select_el.get_dom_attribute("name") == "entitlement",
              f'{what}: #grant-entitlement is not <select name="entitlement">')
    select = Select(select_el)
    # An <option> without a value attribute has its text as its value.
    values = [o.get_attribute("value") for o in select.options]
    choice = next((o for o in select.options if o.get_attribute("value") == entitlement), None) \
        or next((o for o in select.options if entitlement in o.text.split()), None)
    run.require(choice is not None, f"{what}: #grant-entitlement offers no {entitlement} (values {values})")
    choice.click()
    run.check(select.first_selected_option.get_attribute("value") == choice.get_attribute("value"), f"{what}: could not choose {entitlement}")
    until_el = form.find_element(By.ID, "grant-until")
    run.check(until_el.get_dom_attribute("type") == "date" and until_el.get_dom_attribute("name") == "expires_at",
              f'{what}: #grant-until is not <input type="date" name="expires_at">')
    until_el.clear()
    if until:
        until_el.send_keys(until.strftime("%m/%d/%Y"))  # Chromium's date field, en-US
        if until_el.get_attribute("value") != until.isoformat():
            driver.execute_script("arguments[0].value = arguments[1]", until_el, until.isoformat())
        run.check(until_el.get_attribute("value") == until.isoformat(), f"{what}: could not set #grant-until to {until}")
    reason_el = form.find_element(By.ID, "grant-reason")
    run.check(reason_el.get_dom_attribute("name") == "reason", f'{what}: #grant-reason is not named "reason"')
    reason_el.send_keys(reason)
    submit = button(form, "Grant")
    run.require(submit is not None, f'{what}: #grant-form has no "Grant" button')
    click_and_wait(driver, submit)
    doc = page_doc(driver)
    statuses = alert_texts(doc, "status")
    alerts = alert_texts(doc, "alert")
    run.check(statuses, f'{what}: no <p role="status"> after granting {entitlement} (alerts: {alerts}) at {path_of(driver)}')
    run.check(not alerts, f"{what}: an alert after granting {entitlement}: {alerts}")
    return doc


def customer_path(customer):
    return "/console/customers/" + urllib.parse.quote(customer, safe="")


def search(run, driver, query, what):
    """Types QUERY into the customers' search form and submits it."""
    doc = page_doc(driver)
    form = next((f for f in doc.find_all("form") if f.attrs.get("role") == "search"), None)
    run.require(form is not None, f'{what}: no <form role="search"> on {path_of(driver)}')
    run.check(form.attrs.get("method", "").lower() == "get" and form.attrs.get("action") == "/console/customers",
              f'{what}: the search form is not <form method="get" action="/console/customers"> ({form.attrs})')
    q = form.find("input", id="q")
    run.check(q is not None and q.attrs.get("name") == "q" and q.attrs.get("type") == "search",
              f'{what}: the search form has no <input id="q" name="q" type="search">')
    run.check(doc.find("label", for_="q") is not None, f'{what}: no <label for="q">')
    box = driver.find_element(By.ID, "q")
    box.clear()
    box.send_keys(query)
    submit = button(driver.find_element(By.CSS_SELECTOR, 'form[role="search"]'), "Search")
    run.require(submit is not None, f'{what}: the search form has no "Search" button')
    click_and_wait(driver, submit)


# ---------------------------------------------------------------------------------------------
# The tests, in order.


def test_browser_starts(run):
    """Headless Chromium starts through Debian's chromedriver, with JavaScript on and off,
    and loads subscriptiond's /health/ready; JavaScript really is off when switched off."""
    for javascript in (True, False):
        driver = browser(javascript)
        try:
            open_page(run, driver, "/health/ready")
            body = driver.find_element(By.TAG_NAME, "body").text
            run.check("ready" in body, f"/health/ready in Chromium (JavaScript {'on' if javascript else 'off'}) shows {body[:80]!r}")
            driver.get("data:text/html,<title>before</title><script>document.title='after'</script>")
            ran = driver.title == "after"
            run.check(ran == javascript, f"JavaScript {'on' if javascript else 'off'} in Chromium, yet a page's script {'did not run' if javascript else 'ran'}")
            if javascript:
                run.say(f"{driver.capabilities.get('browserName')} {driver.capabilities.get('browserVersion')}")
        finally:
            driver.quit()


def test_signed_out(run):
    """Signed out, every /console page answers 303 to /console/sign-in; the sign-in page
    answers 200 with a Content-Security-Policy; a wrong password answers 401 with the alert;
    a sign-in without a CSRF token is refused."""
    client = Client(run.s.base_url)
    for path in ("/console", "/console/customers", "/console/customers?q=alice", customer_path(FLOW_A_CUSTOMER),
                 "/console/notifications", "/console/webhooks", "/console/products", "/console/keys"):
        answer = client.get(path)
        run.check(answer.status == 303 and answer.location_path() == "/console/sign-in",
                  f"signed out, GET {path} answered {answer.status} to {answer.header('Location')!r}, not 303 to /console/sign-in")
    page = client.get("/console/sign-in")
    run.require(page.status == 200, f"GET /console/sign-in answered {page.status}, not 200")
    csp = page.header("Content-Security-Policy")
    run.check(csp, "GET /console/sign-in sent no Content-Security-Policy")
    run.say(f"Content-Security-Policy: {csp}")
    token = csrf_token(page.doc)
    run.check(token, "the sign-in page has no csrf_token")
    user = run.s.users["support"]
    wrong = client.post("/console/sign-in", {"name": user["name"], "password": user["password"] + "x", "csrf_token": token or ""})
    run.check(wrong.status == 401, f"a wrong password answered HTTP {wrong.status}, not 401")
    run.check(any("Wrong name or password" in a for a in alert_texts(wrong.doc, "alert")),
              f'a wrong password\'s page has no <p role="alert"> "Wrong name or password" (alerts: {alert_texts(wrong.doc, "alert")})')
    run.check(wrong.doc.find("form", action="/console/sign-in") is not None, "a wrong password's answer is not the sign-in page again")
    no_token = Client(run.s.base_url).post("/console/sign-in", {"name": user["name"], "password": user["password"]})
    run.check(no_token.status == 403, f"a sign-in POST without csrf_token answered HTTP {no_token.status}, not 403")


def test_flow_a_support(run):
    """Flow A, JavaScript on, as support: a wrong password then sign-in; the overview's
    charts and pipeline; searches with no match and several; search alice-trial-renews and
    read her pro entitlement; grant her
    news until a date; the timeline and its older items; the other pages; an unknown customer
    (404) and a search with no match; sign out. axe on every page."""
    driver = browser(javascript=True)
    try:
        open_page(run, driver, "/console/sign-in")
        run.screenshot(driver, "flow A sign-in")
        axe(run, driver, "sign-in")
        sign_in(run, driver, run.s.users["support"], wrong_password_first=True, axe_it=True)

        open_page(run, driver, "/console")
        doc = check_layout(run, driver, "overview", "support")
        h1 = doc.find("h1")
        run.check(h1 is not None and h1.text() == "Overview", f"overview: the h1 reads {h1.text() if h1 else None!r}, not Overview")
        figures = doc.find_all("figure")
        charts = [svg for f in figures for svg in f.find_all("svg") if svg.attrs.get("role") == "img"]
        run.check(charts, '/console: no <figure> holding an <svg role="img">')
        untitled = [i for i, svg in enumerate(charts) if not (svg.find("title") and svg.find("title").text())]
        run.check(not untitled, f"/console: the charts {untitled} have no <title>")
        pipeline = doc.find("table", id="pipeline")
        if run.check(pipeline is not None, '/console: no <table id="pipeline">'):
            run.check(pipeline.find("th") is not None, "/console: #pipeline has no header cells (<th>)")
        run.say(f"overview: {len(charts)} charts ({[svg.find('title').text() for svg in charts if svg.find('title')]})")
        run.screenshot(driver, "flow A overview")
        axe(run, driver, "overview")

        click_and_wait(driver, link(driver.find_element(By.CSS_SELECTOR, 'nav[aria-label="Console"]'), "Customers"))
        run.check(path_of(driver) == "/console/customers", f"the nav's Customers link leads to {path_of(driver)}")
        check_layout(run, driver, "customers", "support")
        run.screenshot(driver, "flow A customers")
        axe(run, driver, "customers")

        search(run, driver, UNKNOWN_CUSTOMER, "search with no match")
        run.check("No customer matches" in driver.find_element(By.TAG_NAME, "main").text,
                  f'a search for {UNKNOWN_CUSTOMER} does not say "No customer matches" ({path_of(driver)})')
        run.screenshot(driver, "flow A search no match")
        axe(run, driver, "search with no match")

        query = ambiguous_id(run)
        if query:
            search(run, driver, query, "search with several matches")
            doc = page_doc(driver)
            results = doc.find("table", id="results")
            if run.check(results is not None, f"a search for {query} (an app user id and another customer's original transaction id) "
                         f"shows no #results (at {driver.current_url})"):
                _, rows = read_table(results)
                hrefs = [h for row in rows for h in row["links"]]
                run.check(len(rows) >= 2 and len(hrefs) >= len(rows),
                          f"a search for {query}: #results has {len(rows)} rows and links {hrefs[:4]} (expected 2 rows, each a link)")
                run.say(f"search {query}: {len(rows)} results, links {hrefs}")
                run.screenshot(driver, "flow A search several")
                axe(run, driver, "search with several matches")
                first = driver.find_elements(By.CSS_SELECTOR, "#results a")
                if first:
                    click_and_wait(driver, first[0])
                    run.check(page_doc(driver).find("h1") is not None and path_of(driver).startswith("/console/"),
                              f"the first result of {query} leads to {driver.current_url}, no console page")
                    open_page(run, driver, "/console/customers")

        search(run, driver, FLOW_A_CUSTOMER, "search")
        run.require(path_of(driver) == customer_path(FLOW_A_CUSTOMER),
                    f"searching {FLOW_A_CUSTOMER} did not lead to {customer_path(FLOW_A_CUSTOMER)} but to {driver.current_url}")
        check_customer_page(run, driver, FLOW_A_CUSTOMER, "alice's page", "support")
        rows = check_entitlements_match_truth(run, page_doc(driver), FLOW_A_CUSTOMER, "alice's page")
        visit_first_detail(run, driver, "alice's subscriptions", "#subscriptions a[href^='/console/']")
        run.say(f"alice's pro: {rows.get('pro')}")
        run.check(button(driver, "Check with Apple") is not None, 'support: alice\'s page has no "Check with Apple" button')
        run.check(link(driver, "Delete customer") is None, 'support sees "Delete customer"')
        run.screenshot(driver, "flow A customer")
        axe(run, driver, "customer")

        until = datetime.datetime.now(datetime.timezone.utc).date() + datetime.timedelta(days=30)
        doc = grant(run, driver, "news", until, "browser test: flow A", "flow A grant")
        run.check(path_of(driver) == customer_path(FLOW_A_CUSTOMER), f"after granting, the browser is at {path_of(driver)}, not alice's page")
        rows = entitlement_rows(run, doc, "alice's page after the grant")
        news = rows.get("news") or {}
        run.check(news.get("Active", "").lower().startswith("yes") and "grant" in news.get("Source", "").lower(),
                  f"after granting news, its row shows Active {news.get('Active')!r}, Source {news.get('Source')!r} (expected yes, grant)")
        run.check(until.isoformat() in news.get("Until", "") or str(until.year) in news.get("Until", ""),
                  f"after granting news until {until}, its Until shows {news.get('Until')!r}")
        run.check(button(driver, "Revoke grant") is not None, 'alice\'s active grant has no "Revoke grant" button')
        subscriber = api_subscriber(run, FLOW_A_CUSTOMER) or {}
        api_news = subscriber.get("entitlements", {}).get("news", {})
        run.check(api_news.get("active") is True and api_news.get("source") == "grant",
                  f"the API does not show the console's grant: news = {api_news}")
        run.check((api_news.get("expires_at") or "")[:10] in (until.isoformat(), (until + datetime.timedelta(days=1)).isoformat()),
                  f"granted until {until} in the console, the API says the grant ends {api_news.get('expires_at')}")
        run.screenshot(driver, "flow A granted")
        axe(run, driver, "customer after a grant")

        check_timeline(run, driver, "alice's timeline", axe_it=True, quiet=True)
        run.screenshot(driver, "flow A timeline")
        if not driver.find_elements(By.CSS_SELECTOR, 'a[rel~="next"]'):
            long_timeline(run, driver, "flow A", axe_it=True)

        open_page(run, driver, customer_path(UNKNOWN_CUSTOMER))
        doc = page_doc(driver)
        run.check(doc.find("h1") is not None, f"{customer_path(UNKNOWN_CUSTOMER)}: the not-found page has no h1")
        answer = Client.from_driver(run.s.base_url, driver).get(customer_path(UNKNOWN_CUSTOMER))
        run.check(answer.status == 404, f"GET {customer_path(UNKNOWN_CUSTOMER)} answered HTTP {answer.status}, not 404")
        run.screenshot(driver, "flow A unknown customer")
        axe(run, driver, "unknown customer")

        # The other pages of the nav (those of the contract, and any more it has), and the
        # first detail page each lists (a notification, a webhook event…): axe on all.
        nav_texts = [" ".join(a.text.split()) for a in driver.find_elements(By.CSS_SELECTOR, 'nav[aria-label="Console"] a')]
        others = ["Notifications", "Webhooks", "Refund requests", "Products"] + [t for t in nav_texts if t not in NAV_LINKS + ["Keys"]]
        for page in others:
            nav = driver.find_element(By.CSS_SELECTOR, 'nav[aria-label="Console"]')
            target = link(nav, page)
            if not run.check(target is not None, f"{path_of(driver)}: the nav has no {page} link"):
                continue
            click_and_wait(driver, target)
            doc = check_layout(run, driver, page.lower(), "support")
            run.say(f"{page}: {path_of(driver)}, h1 {doc.find('h1').text() if doc.find('h1') else None!r}")
            run.screenshot(driver, f"flow A {page}")
            axe(run, driver, page.lower())
            visit_first_detail(run, driver, page.lower(), "main table a[href^='/console/']")

        signed_in = Client.from_driver(run.s.base_url, driver).get("/console")
        run.check(signed_in.status == 200, f"signed in, GET /console answered HTTP {signed_in.status}")
        run.check(signed_in.header("Content-Security-Policy"), "GET /console (signed in) sent no Content-Security-Policy")
        sign_out(run, driver, "support")
    except (WebDriverException, TimeoutException) as error:
        traceback.print_exc()
        run.screenshot(driver, "flow A failure")
        raise Abort(f"at {driver.current_url}: {type(error).__name__}: {(error.msg if hasattr(error, 'msg') and error.msg else str(error)).splitlines()[0]}")
    finally:
        driver.quit()


def test_flow_b_support_without_javascript(run):
    """Flow B, JavaScript off, as support: a wrong password then sign-in; the overview;
    search hank-refund (nothing active) and read his entitlements; grant him pro for good,
    then revoke that grant; check him with Apple; his timeline and older items; sign out."""
    driver = browser(javascript=False)
    try:
        sign_in(run, driver, run.s.users["support"], wrong_password_first=True)
        open_page(run, driver, "/console")
        check_layout(run, driver, "overview without JavaScript", "support")
        run.screenshot(driver, "flow B overview")
        click_and_wait(driver, link(driver.find_element(By.CSS_SELECTOR, 'nav[aria-label="Console"]'), "Customers"))
        search(run, driver, FLOW_B_CUSTOMER, "search without JavaScript")
        run.require(path_of(driver) == customer_path(FLOW_B_CUSTOMER),
                    f"searching {FLOW_B_CUSTOMER} did not lead to {customer_path(FLOW_B_CUSTOMER)} but to {driver.current_url}")
        check_customer_page(run, driver, FLOW_B_CUSTOMER, "hank's page", "support")
        check_entitlements_match_truth(run, page_doc(driver), FLOW_B_CUSTOMER, "hank's page")
        run.screenshot(driver, "flow B customer")

        doc = grant(run, driver, "pro", None, "browser test: flow B, for good", "flow B grant")
        rows = entitlement_rows(run, doc, "hank's page after the grant")
        pro = rows.get("pro") or {}
        run.check(pro.get("Active", "").lower().startswith("yes") and "grant" in pro.get("Source", "").lower(),
                  f"after granting pro, its row shows Active {pro.get('Active')!r}, Source {pro.get('Source')!r} (expected yes, grant)")
        api_pro = (api_subscriber(run, FLOW_B_CUSTOMER) or {}).get("entitlements", {}).get("pro", {})
        run.check(api_pro.get("active") is True and api_pro.get("source") == "grant" and api_pro.get("expires_at") is None,
                  f"the API does not show hank's grant for good: pro = {api_pro}")
        run.screenshot(driver, "flow B granted")

        revoke = button(driver, "Revoke grant")
        if run.check(revoke is not None, 'hank\'s active grant has no "Revoke grant" button'):
            click_and_wait(driver, revoke)
            doc = page_doc(driver)
            run.check(alert_texts(doc, "status"), f'no <p role="status"> after revoking the grant (alerts: {alert_texts(doc, "alert")})')
            pro = entitlement_rows(run, doc, "hank's page after revoking").get("pro") or {}
            run.check(pro.get("Active", "").lower().startswith("no"), f"after revoking hank's grant, pro shows Active {pro.get('Active')!r}")
            api_pro = (api_subscriber(run, FLOW_B_CUSTOMER) or {}).get("entitlements", {}).get("pro", {})
            run.check(api_pro.get("active") is False, f"the API still shows hank's revoked grant: pro = {api_pro}")
            run.screenshot(driver, "flow B revoked")

        recheck = button(driver, "Check with Apple")
        if run.check(recheck is not None, 'support: hank\'s page has no "Check with Apple" button'):
            click_and_wait(driver, recheck)
            doc = page_doc(driver)
            run.check(path_of(driver) == customer_path(FLOW_B_CUSTOMER), f"after Check with Apple the browser is at {path_of(driver)}")
            run.check(alert_texts(doc, "status") and not alert_texts(doc, "alert"),
                      f"Check with Apple: status {alert_texts(doc, 'status')}, alerts {alert_texts(doc, 'alert')} (expected a status, no alert)")
            run.say(f"Check with Apple: {alert_texts(doc, 'status') or alert_texts(doc, 'alert')}")
            run.screenshot(driver, "flow B checked with Apple")

        check_timeline(run, driver, "hank's timeline", quiet=True)
        run.screenshot(driver, "flow B timeline")
        if not driver.find_elements(By.CSS_SELECTOR, 'a[rel~="next"]'):
            long_timeline(run, driver, "flow B")
        sign_out(run, driver, "support")
    except (WebDriverException, TimeoutException) as error:
        traceback.print_exc()
        run.screenshot(driver, "flow B failure")
        raise Abort(f"at {driver.current_url}: {type(error).__name__}: {(error.msg if hasattr(error, 'msg') and error.msg else str(error)).splitlines()[0]}")
    finally:
        driver.quit()


def grant_action(run, customer):
    """The grant form's URL and fields on CUSTOMER's page, as support sees them."""
    support = Client(run.s.base_url)
    answer = support.sign_in(run.s.users["support"])
    run.require(answer.status in (302, 303), f"signing support in over HTTP answered {answer.status}")
    page = support.get(customer_path(customer))
    run.require(page.status == 200, f"support: GET {customer_path(customer)} answered {page.status}")
    form = page.doc.find("form", id="grant-form")
    run.require(form is not None, f"support: {customer_path(customer)} has no #grant-form")
    action = form.attrs.get("action") or customer_path(customer)
    return support, urllib.parse.urljoin(customer_path(customer), action), page


def test_viewer(run):
    """A viewer reads pam-lifetime's page without any action on it (no grant form, no
    revoke, no check with Apple, no delete, no Keys); a grant the viewer posts anyway, with
    the viewer's own valid CSRF token, is refused with 403 and changes nothing."""
    driver = browser(javascript=True)
    try:
        sign_in(run, driver, run.s.users["viewer"])
        open_page(run, driver, "/console/customers")
        search(run, driver, VIEWER_CUSTOMER, "viewer's search")
        run.require(path_of(driver) == customer_path(VIEWER_CUSTOMER), f"the viewer's search for {VIEWER_CUSTOMER} led to {driver.current_url}")
        check_customer_page(run, driver, VIEWER_CUSTOMER, "pam's page (viewer)", "viewer")
        check_entitlements_match_truth(run, page_doc(driver), VIEWER_CUSTOMER, "pam's page (viewer)")
        run.check(not driver.find_elements(By.ID, "grant-form"), "the viewer sees #grant-form")
        for label in ("Grant", "Revoke grant", "Check with Apple", "Delete customer"):
            run.check(button(driver, label) is None and link(driver, label) is None, f'the viewer sees "{label}"')
        run.screenshot(driver, "viewer customer")
        axe(run, driver, "customer (viewer)")

        _, action, _ = grant_action(run, VIEWER_CUSTOMER)
        viewer = Client.from_driver(run.s.base_url, driver)
        page = viewer.get(customer_path(VIEWER_CUSTOMER))
        token = csrf_token(page.doc)
        run.require(token, "the viewer's customer page carries no csrf_token (in its sign-out form)")
        before = (api_subscriber(run, VIEWER_CUSTOMER) or {}).get("entitlements", {})
        forged = viewer.post(action, {"csrf_token": token, "entitlement": "news", "expires_at": "", "reason": "a viewer may not"})
        run.check(forged.status == 403, f"a viewer's grant POST to {action} with a valid CSRF token answered HTTP {forged.status}, not 403")
        after = (api_subscriber(run, VIEWER_CUSTOMER) or {}).get("entitlements", {})
        run.check(after == before, f"a viewer's refused grant changed pam's entitlements: {before} -> {after}")
        sign_out(run, driver, "viewer")
    except (WebDriverException, TimeoutException) as error:
        traceback.print_exc()
        run.screenshot(driver, "viewer failure")
        raise Abort(f"at {driver.current_url}: {type(error).__name__}: {(error.msg if hasattr(error, 'msg') and error.msg else str(error)).splitlines()[0]}")
    finally:
        driver.quit()


def test_csrf(run):
    """A support user's grant POST without a csrf_token, or with a wrong one, is refused
    with 403 and changes nothing."""
    support, action, page = grant_action(run, VIEWER_CUSTOMER)
    token = csrf_token(page.doc) or ""
    before = (api_subscriber(run, VIEWER_CUSTOMER) or {}).get("entitlements", {})
    fields = {"entitlement": "news", "expires_at": "", "reason": "forged"}
    missing = support.post(action, fields)
    run.check(missing.status == 403, f"a grant POST without csrf_token answered HTTP {missing.status}, not 403")
    # One character changed: a different first character (a random token may itself start with "x").
    forged = (("y" if token[0] == "x" else "x") + token[1:]) if token else "wrong-token"
    wrong = support.post(action, dict(fields, csrf_token=forged))
    run.check(wrong.status == 403, f"a grant POST with a wrong csrf_token answered HTTP {wrong.status}, not 403")
    after = (api_subscriber(run, VIEWER_CUSTOMER) or {}).get("entitlements", {})
    run.check(after == before, f"refused grant POSTs changed pam's entitlements: {before} -> {after}")
    sign_out_answer = support.post("/console/sign-out", {})
    run.check(sign_out_answer.status == 403, f"a sign-out POST without csrf_token answered HTTP {sign_out_answer.status}, not 403")


def test_admin(run):
    """An admin sees Keys in the nav and its page, and deletes frank-trial-cancels through
    "Delete customer" and its confirmation page; his page then answers 404."""
    driver = browser(javascript=True)
    try:
        sign_in(run, driver, run.s.users["admin"])
        open_page(run, driver, "/console")
        check_layout(run, driver, "overview (admin)", "admin")
        keys = link(driver.find_element(By.CSS_SELECTOR, 'nav[aria-label="Console"]'), "Keys")
        if run.check(keys is not None, "the admin's nav has no Keys link"):
            click_and_wait(driver, keys)
            check_layout(run, driver, "keys", "admin")
            run.screenshot(driver, "admin keys")
            axe(run, driver, "keys")
        open_page(run, driver, "/console/customers")
        search(run, driver, ADMIN_DELETES, "admin's search")
        run.require(path_of(driver) == customer_path(ADMIN_DELETES), f"the admin's search for {ADMIN_DELETES} led to {driver.current_url}")
        check_customer_page(run, driver, ADMIN_DELETES, "frank's page (admin)", "admin")
        delete = link(driver, "Delete customer")
        run.require(delete is not None, 'the admin sees no "Delete customer" link on frank\'s page')
        click_and_wait(driver, delete)
        doc = check_layout(run, driver, "delete confirmation", "admin")
        run.say(f"confirmation page {path_of(driver)}: h1 {doc.find('h1').text() if doc.find('h1') else None!r}")
        run.screenshot(driver, "admin delete confirmation")
        axe(run, driver, "delete confirmation")
        confirm = button(driver, "Delete customer")
        run.require(confirm is not None, 'the confirmation page has no "Delete customer" button')
        click_and_wait(driver, confirm)
        statuses = alert_texts(page_doc(driver), "status")
        run.check(statuses, f'no <p role="status"> after deleting frank (at {path_of(driver)})')
        run.screenshot(driver, "admin deleted")
        gone = Client.from_driver(run.s.base_url, driver).get(customer_path(ADMIN_DELETES))
        run.check(gone.status == 404, f"after deleting frank, GET {customer_path(ADMIN_DELETES)} answered HTTP {gone.status}, not 404")
        sign_out(run, driver, "admin")
    except (WebDriverException, TimeoutException) as error:
        traceback.print_exc()
        run.screenshot(driver, "admin failure")
        raise Abort(f"at {driver.current_url}: {type(error).__name__}: {(error.msg if hasattr(error, 'msg') and error.msg else str(error)).splitlines()[0]}")
    finally:
        driver.quit()


LABELS = {"flow_a_support": "flow A", "flow_b_support_without_javascript": "flow B"}
TESTS = [test_browser_starts, test_signed_out, test_flow_a_support, test_flow_b_support_without_javascript,
         test_viewer, test_csrf, test_admin]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    env = os.environ.get
    parser.add_argument("--base-url", default=env("CONSOLE_BASE_URL"))
    parser.add_argument("--users-file", default=env("CONSOLE_USERS_FILE"))
    parser.add_argument("--truth-file", default=env("CONSOLE_TRUTH_FILE"))
    parser.add_argument("--admin-token", default=env("CONSOLE_ADMIN_TOKEN"))
    parser.add_argument("--screenshots", default=env("CONSOLE_SCREENSHOTS", ".build/console-screenshots"))
    parser.add_argument("--only", default=env("CONSOLE_TEST_ONLY", ""))
    settings = parser.parse_args()
    if not settings.base_url or not settings.users_file:
        parser.error("CONSOLE_BASE_URL and CONSOLE_USERS_FILE are needed (Deploy/local/console-browser-test.sh sets them)")
    settings.base_url = settings.base_url.rstrip("/")
    settings.users = json.load(open(settings.users_file))
    settings.truth = {}
    if settings.truth_file:
        settings.truth = {c["app_user_id"]: c for c in json.load(open(settings.truth_file))["customers"]}
    os.makedirs(settings.screenshots, exist_ok=True)
    wanted = [w.strip() for w in settings.only.split(",") if w.strip()]
    tests = [t for t in TESTS if not wanted or t.__name__.removeprefix("test_") in wanted or t.__name__ in wanted]

    run = Run(settings)
    passed = failed = 0
    started = time.monotonic()
    for test in tests:
        run.test = test.__name__.removeprefix("test_")
        run.label = LABELS.get(run.test, run.test)
        run.role = {"viewer": "viewer", "admin": "admin"}.get(run.test, "support")
        print(f"{run.test}: {test.__doc__.split(chr(10))[0].strip()} …", flush=True)
        count = len(run.failures)
        t0 = time.monotonic()
        try:
            test(run)
        except Abort as error:
            run.fail(str(error))
        except Exception as error:  # a bug here or a page that breaks the test: one line, then the trace
            run.fail(f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
            traceback.print_exc()
        ok = len(run.failures) == count
        passed, failed = passed + ok, failed + (not ok)
        print(f"{run.test}: {'ok' if ok else 'FAILED'} ({time.monotonic() - t0:.1f} s)", flush=True)
    print()
    if run.failures:
        print(f"{len(run.failures)} failures:")
        for line in run.failures:
            print("  " + line)
    if run.notes:
        print(f"{len(run.notes)} notes (not failures):")
        for line in run.notes:
            print("  " + line)
    print(f"screenshots: {run.shots} in {settings.screenshots}; {time.monotonic() - started:.0f} s")
    print(f"browser: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
