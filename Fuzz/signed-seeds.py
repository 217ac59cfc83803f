#!/usr/bin/env python3
"""Writes unpacked-JWS seeds for the verifier harness (Sources/IntakeFuzzer/SignedPayloadHarness.swift).

usage: signed-seeds.py FIXTURES_DIR CORPUS_DIR

Each genuine v2 notification under FIXTURES_DIR/v2-genuine becomes {"jws": {header, payload,
signature}} with its nested signedTransactionInfo / signedRenewalInfo unpacked the same way,
so libFuzzer mutates fields rather than base64 text. One of them is also written with its
signedDate at every edge: +-1 ms around year boundaries (2007, Apple Root CA - G3's 2014, each
year 2020-2030, 9999/10000) and +-1 around the Int64 and Double limits.
"""
import base64
import calendar
import json
import pathlib
import sys


def b64url_decode(part):
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def unpack(jws):
    header, payload, signature = jws.split(".")
    payload = json.loads(b64url_decode(payload))
    data = payload.get("data")
    if isinstance(data, dict):
        for key in ("signedTransactionInfo", "signedRenewalInfo"):
            if isinstance(data.get(key), str):
                data[key] = unpack(data[key])
    return {"header": json.loads(b64url_decode(header)), "payload": payload, "signature": signature}


def year_start_ms(year):
    if year <= 9999:
        return calendar.timegm((year, 1, 1, 0, 0, 0)) * 1000
    return (calendar.timegm((9999, 12, 31, 0, 0, 0)) + 86400) * 1000


def edge_literals():
    literals = []
    for year in [2007, 2014, *range(2020, 2031), 9999, 10000]:
        start = year_start_ms(year)
        literals += [str(start - 1), str(start), str(start + 1)]
    int64 = 2**63 - 1
    literals += [str(int64 - 1), str(int64), str(int64 + 1), str(-int64), str(-int64 - 2)]
    literals += ["1.7976931348623157e308", "1.7976931348623155e308", "1.7976931348623159e308",
                 "-1.7976931348623157e308", "5e-324", "9007199254740991", "9007199254740993", "-1", "0"]
    return literals


def main():
    fixtures, corpus = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    corpus.mkdir(parents=True, exist_ok=True)
    genuine = sorted((fixtures / "v2-genuine").glob("*.json"))
    for path in genuine:
        seed = {"jws": unpack(json.loads(path.read_text())["signedPayload"])}
        (corpus / f"unpacked-{path.name}").write_text(json.dumps(seed))
    if not genuine:
        return
    template = json.loads(genuine[0].read_text())["signedPayload"]
    for literal in edge_literals():
        seed = json.dumps({"jws": unpack(template)})
        signed_date = json.dumps(json.loads(seed)["jws"]["payload"]["signedDate"])
        seed = seed.replace(f'"signedDate": {signed_date}', f'"signedDate": {literal}', 1)
        (corpus / f"signed-date-{literal}.json").write_text(seed)


if __name__ == "__main__":
    main()
