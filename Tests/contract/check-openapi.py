#!/usr/bin/env python3
"""Holds the answers the tests received to docs/openapi.yaml (run by `make test`).

Usage: check-openapi.py OPENAPI.yaml ANSWERS.jsonl

ANSWERS.jsonl has one exchange per line, as the Swift tests record them through
RunningService (SUBSCRIPTIOND_CONTRACT_RECORD): {"method", "path", "status", "content_type",
"body"}, and one per webhook delivery the tests' receivers got: {"webhook", "headers", "body"}.
The document must be valid OpenAPI 3.1 and every operation must have an operationId of its
own; every answer's route, method and status must be in it, and a JSON answer must match the
schema of that status; every delivery must carry the headers its webhook requires, each
matching its schema, and a body matching the webhook's. Every operation and webhook of the
document must have been answered or delivered at least once, so the document cannot describe
a route the tests never reach. Exits 1 with one line per problem."""
import json
import re
import sys

import jsonschema
import yaml
from openapi_spec_validator import validate


def main(spec_path, answers_path):
    spec = yaml.safe_load(open(spec_path))
    validate(spec)
    routes = []
    for template, item in spec["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template)) + "$"
        routes.append((re.compile(pattern), template, item))
    problems, seen, checked = operation_id_problems(spec), set(), 0
    for number, line in enumerate(open(answers_path), start=1):
        if not line.strip():
            continue
        answer = json.loads(line)
        if "webhook" in answer:
            problems += delivery_problems(spec, answer)
            seen.add(("webhook", answer["webhook"]))
            checked += 1
            continue
        method, path, status = answer["method"].lower(), answer["path"], str(answer["status"])
        match = next(((template, item) for pattern, template, item in routes if pattern.match(path)), None)
        if match is None:
            problems.append(f"{answer['method']} {path}: no route of the document matches")
            continue
        template, item = match
        operation = item.get(method)
        if operation is None:
            problems.append(f"{answer['method']} {template}: the document has no {method.upper()} here")
            continue
        seen.add((template, method))
        responses = operation["responses"]
        response = responses.get(status) or responses.get(status[0] + "XX") or responses.get("default")
        if response is None:
            problems.append(f"{answer['method']} {template} answered {status}, which the document does not list ({', '.join(responses)})")
            continue
        response = resolve(spec, response)
        content = response.get("content", {})
        if "application/json" in content:
            try:
                body = json.loads(answer["body"])
            except ValueError:
                problems.append(f"{answer['method']} {template} {status}: the body is not JSON: {answer['body'][:120]}")
                continue
            schema = dict(content["application/json"]["schema"])
            schema["components"] = spec["components"]
            errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(body), key=lambda e: list(e.path))
            for error in errors[:3]:
                where = "/".join(str(p) for p in error.path) or "(the body)"
                problems.append(f"{answer['method']} {template} {status}: {where}: {error.message[:200]}")
            checked += 1
    for template, item in spec["paths"].items():
        for method in ("get", "post", "put", "delete", "patch"):
            if method in item and (template, method) not in seen:
                problems.append(f"{method.upper()} {template}: described, but no test received an answer from it")
    for name in spec.get("webhooks", {}):
        if ("webhook", name) not in seen:
            problems.append(f"webhook {name}: described, but no test's receiver got a delivery of it")
    unique = list(dict.fromkeys(problems))
    for problem in unique:
        print("openapi: " + problem)
    print(f"openapi: {checked} JSON answers and deliveries of {len(seen)} operations and webhooks checked against {spec_path}; {len(unique)} problems")
    return 1 if unique else 0


def operations(spec):
    """Every (where, operation) of the document: its paths' and its webhooks'."""
    for section in ("paths", "webhooks"):
        for name, item in spec.get(section, {}).items():
            for method in ("get", "post", "put", "delete", "patch"):
                if method in item:
                    yield f"{method.upper()} {name}", item[method]


def operation_id_problems(spec):
    problems, owners = [], {}
    for where, operation in operations(spec):
        identifier = operation.get("operationId")
        if not identifier:
            problems.append(f"{where}: has no operationId")
        elif identifier in owners:
            problems.append(f"{where}: operationId {identifier} is also {owners[identifier]}'s")
        else:
            owners[identifier] = where
    return problems


def delivery_problems(spec, delivery):
    """What is wrong with one recorded webhook delivery: a required header missing or not
    matching its schema, a body that is not JSON or does not match the webhook's schema."""
    name = delivery["webhook"]
    operation = spec.get("webhooks", {}).get(name, {}).get("post")
    if operation is None:
        return [f"webhook {name}: the document has no such webhook"]
    problems = []
    headers = {key.lower(): value for key, value in delivery["headers"].items()}
    for parameter in (resolve(spec, p) for p in operation.get("parameters", [])):
        if parameter["in"] != "header":
            continue
        value = headers.get(parameter["name"].lower())
        if value is None:
            if parameter.get("required"):
                problems.append(f"webhook {name}: a delivery lacks the header {parameter['name']}")
            continue
        for error in jsonschema.Draft202012Validator(parameter["schema"]).iter_errors(value):
            problems.append(f"webhook {name}: header {parameter['name']}: {error.message[:200]}")
    try:
        body = json.loads(delivery["body"])
    except ValueError:
        return problems + [f"webhook {name}: the body is not JSON: {delivery['body'][:120]}"]
    schema = dict(resolve(spec, operation["requestBody"])["content"]["application/json"]["schema"])
    schema["components"] = spec["components"]
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(body), key=lambda e: list(e.path))
    for error in errors[:3]:
        where = "/".join(str(p) for p in error.path) or "(the body)"
        problems.append(f"webhook {name} ({body.get('type', '?')}): {where}: {error.message[:200]}")
    return problems


def resolve(spec, node):
    while "$ref" in node:
        target = spec
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
