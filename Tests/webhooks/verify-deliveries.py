#!/usr/bin/env python3
"""Verifies webhook deliveries the way a receiver does, independently of subscriptiond's code:
the Standard Webhooks headers with the `standardwebhooks` library (PyPI; `make test` installs
it), the `Subscriptiond-Signature` header with Python's hmac. Run by WebhookStandardTests.

Usage: verify-deliveries.py DELIVERIES.json
DELIVERIES.json: {"secrets": {"NAME": "SECRET", ...}, "deliveries": [{"headers": {...}, "body": "..."}]}
Prints one JSON line per delivery: {"id", "standard": {NAME: bool}, "legacy": {NAME: bool}}.
A secret that starts with whsec_ goes to the library as text (it decodes the key); any other
as its UTF-8 bytes, as the README tells receivers."""
import hashlib
import hmac
import json
import sys

from standardwebhooks import Webhook, WebhookVerificationError


def standard(secret, headers, body):
    webhook = Webhook(secret if secret.startswith("whsec_") else secret.encode())
    try:
        webhook.verify(body, headers)
        return True
    except WebhookVerificationError:
        return False


def legacy(secret, headers, body):
    timestamp = headers.get("subscriptiond-timestamp", "")
    expected = "v1=" + hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, s.strip()) for s in headers.get("subscriptiond-signature", "").split(","))


def main(path):
    given = json.load(open(path))
    for delivery in given["deliveries"]:
        headers = {name.lower(): value for name, value in delivery["headers"].items()}
        body = delivery["body"].encode()
        print(json.dumps({
            "id": headers.get("webhook-id"),
            "standard": {name: standard(secret, headers, body) for name, secret in given["secrets"].items()},
            "legacy": {name: legacy(secret, headers, body) for name, secret in given["secrets"].items()},
        }))


if __name__ == "__main__":
    main(sys.argv[1])
