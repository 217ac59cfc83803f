"""What the scripts that run subscriptiond against appstore-sim share (make test-ha, the
restore drill, the rolling-upgrade test): the simulator's two apps in SUBSCRIPTIOND_CONFIG,
and the settings that make the simulator subscriptiond's Apple."""
import json
import os
import secrets

from ha_cluster import ROOT

BUNDLES = ("com.example.app", "com.example.paidapp")


def write_apps_config(path, api_key=None):
    """SUBSCRIPTIOND_CONFIG at `path` (mode 0600) with the simulator's two apps (its random
    customers buy in both), each with a new shared secret and, when given, `api_key`
    (issuer_id, key_id, private_key_file); the shared secrets by bundle id."""
    shared_secrets = {bundle: secrets.token_hex(20) for bundle in BUNDLES}
    key = api_key or {}
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as out:
        json.dump({"apps": [
            {"bundle_id": "com.example.app", "shared_secret": shared_secrets["com.example.app"], "app_apple_id": 1234567890, **key},
            {"bundle_id": "com.example.paidapp", "shared_secret": shared_secrets["com.example.paidapp"], "app_apple_id": 1234567891,
             "grandfather": {"before_version": "2.0", "entitlement": "paid_pro"}, **key},
        ]}, out)
    return shared_secrets


def simulator_settings(sim_port, sim_root):
    """subscriptiond's settings for appstore-sim on `sim_port` whose root is the PEM at
    `sim_root`: verifyReceipt and the App Store Server API there, its root trusted beside
    Apple's, its years-old histories taken, and a short worker lease."""
    base = f"http://127.0.0.1:{sim_port}"
    return {
        "VERIFY_RECEIPT_URL": f"{base}/verifyReceipt", "VERIFY_RECEIPT_SANDBOX_URL": f"{base}/sandbox/verifyReceipt",
        "APPSTORE_API_URL": f"{base}/api", "APPSTORE_API_SANDBOX_URL": f"{base}/api-sandbox",
        "APPSTORE_ROOT_CERTIFICATES": f"{ROOT}/Certificates/AppleRootCA-G3.pem,{sim_root}",
        "APPSTORE_RECEIPT_ROOT_CERTIFICATES": f"{ROOT}/Certificates/AppleIncRootCertificate.pem,{sim_root}",
        "NOTIFICATION_MAX_AGE_DAYS": "3650", "WORKER_LEASE_MS": "5000",
    }
