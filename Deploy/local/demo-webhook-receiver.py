#!/usr/bin/env python3
"""`make demo`'s stand-in for the app's backend: receives subscriptiond's webhooks on
127.0.0.1:PORT, verifies each signature with SECRET (and refuses a timestamp more than 5
minutes off, a replayed request), and appends one JSON line per event (id, type, subject,
app_user_ids, status, signature_ok) to OUT. Usage: PORT SECRET OUT

A subscription's events carry `subscription`; a one-time purchase's (`purchase_created`,
`purchase_revoked`) carry `purchase`; `entitlement_changed` carries `entitlement` and
`active`: a receiver switches on `type`."""
import hashlib, hmac, json, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, secret, out = int(sys.argv[1]), sys.argv[2].encode(), sys.argv[3]
TOLERANCE_SECONDS = 300

def verified(headers, raw):
    timestamp = headers.get("Subscriptiond-Timestamp", "")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        return False
    expected = "v1=" + hmac.new(secret, timestamp.encode() + b"." + raw, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, s.strip()) for s in headers.get("Subscriptiond-Signature", "").split(","))

class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        ok = verified(self.headers, raw)
        event = json.loads(raw)
        if event.get("subscription") is not None:
            subject, status = event["subscription"].get("original_transaction_id"), event["subscription"]["status"]
        elif event.get("purchase") is not None:
            purchase = event["purchase"]
            subject, status = purchase.get("original_transaction_id"), "revoked" if purchase.get("revoked_at") else "purchased"
        else:
            subject, status = "entitlement " + event.get("entitlement", "?"), "active" if event.get("active") else "ended"
        line = {"id": event["id"], "type": event["type"], "signature_ok": ok, "subscription": subject,
                "app_user_ids": event.get("app_user_ids", []), "previous_status": event.get("previous_status"),
                "status": status}
        with open(out, "a") as f:
            f.write(json.dumps(line) + "\n")
        self.send_response(204 if ok else 401)
        self.end_headers()

    def log_message(self, *args):
        pass

ThreadingHTTPServer(("127.0.0.1", port), Receiver).serve_forever()
