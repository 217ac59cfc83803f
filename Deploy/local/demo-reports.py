#!/usr/bin/env python3
"""`make demo`'s money check: asks subscriptiond's reports (GET /v1/reports/{metric}) for MRR,
active subscriptions and trials at the end of DAY and revenue from FROM through DAY, and prints
them next to the simulator's own arithmetic (SIM_JSON, from `appstore-sim money`). FROM is the
first day of DAY's month: revenue is then one point of a monthly report, rounded once on both sides.
Usage: BASE_URL ADMIN_TOKEN SIM_JSON DAY FROM

Reports are rollups kept as facts change, so a disagreement is asked again for a while before
it counts. A 404 (a subscriptiond without reports) prints "reports: not available" and is no
failure; the exit status is always 0: the demo's customer check is what fails the demo."""
import json, sys, time, urllib.error, urllib.request

base, token, sim_path, day, start = sys.argv[1:6]
sim = json.load(open(sim_path))
METRICS = [("mrr", day), ("active_subscriptions", day), ("active_trials", day), ("revenue", start)]


class NotAvailable(Exception):
    pass


def report(metric, first):
    interval = "month" if metric == "revenue" else "day"
    url = f"{base}/v1/reports/{metric}?from={first}&to={day}&interval={interval}"
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        raise NotAvailable(f"GET /v1/reports/{metric} answered {error.code}") from error
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise NotAvailable(f"GET /v1/reports/{metric}: {error}") from error


def ask():
    """subscriptiond's numbers: the last day's value for the counts and MRR, the month's for revenue."""
    got, currency, missing = {}, None, set()
    for metric, first in METRICS:
        answer = report(metric, first)
        values = [point.get("value") or 0 for point in answer.get("points", [])]
        got[metric] = values[-1] if values else 0
        currency = answer.get("currency", currency)
        missing.update(answer.get("missing_rates", []))
    return got, currency, sorted(missing)


def same(metric, theirs):
    mine = sim[metric]
    return round(float(theirs), 2) == round(float(mine), 2) if metric in ("mrr", "revenue") else int(theirs) == int(mine)


try:
    deadline = time.time() + 20
    got, currency, missing = ask()
    while not all(same(m, got[m]) for m, _ in METRICS) and time.time() < deadline:
        time.sleep(1)
        got, currency, missing = ask()
except NotAvailable as reason:
    print(f"reports: not available ({reason})")
    sys.exit(0)

agree = sum(same(m, got[m]) for m, _ in METRICS)
mark = {m: "" if same(m, got[m]) else " ≠" for m, _ in METRICS}
money = lambda value: f"{float(value):.2f}"
print(
    f"revenue: MRR {money(got['mrr'])} {currency} (simulator {money(sim['mrr'])}){mark['mrr']}"
    f" · actives {int(got['active_subscriptions'])} ({sim['active_subscriptions']}){mark['active_subscriptions']}"
    f" · trials {int(got['active_trials'])} ({sim['active_trials']}){mark['active_trials']}"
    f" · revenue since {start} {money(got['revenue'])} {currency} ({money(sim['revenue'])}){mark['revenue']}"
)
if currency != sim["currency"]:
    print(f"  subscriptiond reports in {currency}, the simulator in {sim['currency']} (REPORT_CURRENCY)")
if missing or sim["missing_rates"]:
    print(f"  missing rates: subscriptiond {', '.join(missing) or 'none'}, simulator {', '.join(sim['missing_rates']) or 'none'}")
print(f"reports agree with the simulator: {agree}/{len(METRICS)} numbers")
