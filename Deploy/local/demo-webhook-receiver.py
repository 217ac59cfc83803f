#!/usr/bin/env python3
"""`make demo`'s stand-in for the app's backend: receives subscriptiond's webhooks on
127.0.0.1:PORT, verifies each signature with SECRET, and appends one JSON line per event
(id, type, subscription or purchase, status, signature_ok) to OUT. Usage: PORT SECRET OUT

A subscription's events carry `subscription`; a one-time purchase's (`purchase_created`,
`purchase_revoked`) carry `purchase` instead: a receiver switches on `type`."""
import hashlib, hmac, json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, secret, out = int(sys.argv[1]), sys.argv[2].encode(), sys.argv[3]

class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        timestamp = self.headers.get("Subscriptiond-Timestamp", "")
        expected = "v1=" + hmac.new(secret, timestamp.encode() + b"." + raw, hashlib.sha256).hexdigest()
        ok = hmac.compare_digest(expected, self.headers.get("Subscriptiond-Signature", ""))
        event = json.loads(raw)
        if event.get("subscription") is not None:
            subject, status = event["subscription"], event["subscription"]["status"]
        else:
            subject = event.get("purchase") or {}
            status = "revoked" if subject.get("revoked_at") else "purchased"
        line = {"id": event["id"], "type": event["type"], "signature_ok": ok,
                "subscription": subject.get("original_transaction_id"),
                "previous_status": event.get("previous_status"), "status": status}
        with open(out, "a") as f:
            f.write(json.dumps(line) + "\n")
        self.send_response(204 if ok else 401)
        self.end_headers()

    def log_message(self, *args):
        pass

ThreadingHTTPServer(("127.0.0.1", port), Receiver).serve_forever()
