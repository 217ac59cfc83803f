"""What `make test-ha` sees from outside subscriptiond: every intake answer Apple (the
simulator) got, and every webhook the app's backend got.

IntakeRecorder stands where a load balancer would, between appstore-sim and subscriptiond:
it passes each notification on unchanged and records the answer (time, status, the id
subscriptiond gave it, and what identifies the notification: v2's notificationUUID, v1's
body without its password), so the test knows exactly which notifications were
acknowledged. WebhookReceiver answers 204 to every delivery with a valid signature and
records the order in which event ids first arrived."""
import base64
import hashlib
import hmac
import http.client
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def identity(body):
    """("v2", notificationUUID) or ("v1", body without password) for a notification body."""
    document = json.loads(body)
    if "signedPayload" in document:
        payload = document["signedPayload"].split(".")[1]
        payload += "=" * (-len(payload) % 4)
        return ("v2", json.loads(base64.urlsafe_b64decode(payload))["notificationUUID"])
    document.pop("password", None)
    return ("v1", document)


class Answer:
    """One intake answer as the sender saw it."""

    def __init__(self, at, status, notification_id, key):
        self.at, self.status, self.notification_id, self.key = at, status, notification_id, key


class IntakeRecorder:
    """A pass-through on 127.0.0.1:port to subscriptiond's intake that records every answer."""

    def __init__(self, port, upstream_port):
        self.answers = []
        self.lock = threading.Lock()
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                status, payload, retry_after = recorder.forward(self.path, body)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                if retry_after:
                    self.send_header("Retry-After", retry_after)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args):
                pass

        self.upstream_port = upstream_port
        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def forward(self, path, body):
        status, payload, retry_after, notification_id = 502, b'{"error":"upstream"}', None, None
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.upstream_port, timeout=90)
            connection.request("POST", path, body, {"Content-Type": "application/json"})
            response = connection.getresponse()
            status, payload, retry_after = response.status, response.read(), response.getheader("Retry-After")
            connection.close()
            if status == 200:
                notification_id = json.loads(payload).get("id")
        except (OSError, http.client.HTTPException, ValueError):
            pass
        with self.lock:
            self.answers.append(Answer(time.time(), status, notification_id, identity(body)))
        return status, payload, retry_after

    def snapshot(self):
        with self.lock:
            return list(self.answers)

    def close(self):
        self.server.shutdown()


class WebhookReceiver:
    """The app's backend: 204 for each delivery signed with `secret`; records first arrivals."""

    def __init__(self, port, secret):
        self.first_arrival = {}
        self.deliveries = 0
        self.bad_signatures = 0
        self.lock = threading.Lock()
        receiver = self
        key = secret.encode()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                timestamp = self.headers.get("Subscriptiond-Timestamp", "")
                expected = "v1=" + hmac.new(key, timestamp.encode() + b"." + raw, hashlib.sha256).hexdigest()
                signatures = [s.strip() for s in self.headers.get("Subscriptiond-Signature", "").split(",")]
                ok = any(hmac.compare_digest(expected, s) for s in signatures)
                with receiver.lock:
                    receiver.deliveries += 1
                    if ok:
                        receiver.first_arrival.setdefault(json.loads(raw)["id"], len(receiver.first_arrival))
                    else:
                        receiver.bad_signatures += 1
                self.send_response(204 if ok else 401)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def arrivals(self):
        with self.lock:
            return dict(self.first_arrival)

    def close(self):
        self.server.shutdown()
