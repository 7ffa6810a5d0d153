#!/usr/bin/python3
# Validate pmustat's JSON outputs against docs/schema/*.schema.json with
# Debian's python3-jsonschema (scripts/install-deps.sh installs it).
#   validate.py SCHEMA_DIR NAME FILE...   NAME: result, journal, doctor, regions,
#                                         bisect, bisect-journal
# A journal is JSON Lines: every line is validated on its own (a bisect's
# journal against the bisect schema's journal_line). Exit 0 when
# every file is valid; else 1, with one line per error naming file, line
# and path.
import json
import sys

import jsonschema


def load_store(d):
    store = {}
    for name in ("result", "journal", "doctor", "regions", "bisect"):
        with open(f"{d}/{name}.schema.json") as f:
            s = json.load(f)
        jsonschema.Draft202012Validator.check_schema(s)
        store[s["$id"]] = s
    return store


def documents(path, lines):
    with open(path) as f:
        if not lines:
            yield 0, json.load(f)
            return
        for n, line in enumerate(f, 1):
            yield n, json.loads(line)


def main():
    d, name, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    store = load_store(d)
    if name == "bisect-journal":
        schema = {"$ref": "urn:pmustat:schema:bisect#/$defs/journal_line"}
    else:
        schema = store[f"urn:pmustat:schema:{name}"]
    resolver = jsonschema.RefResolver.from_schema(schema, store=store)
    v = jsonschema.Draft202012Validator(schema, resolver=resolver)
    bad = 0
    for path in files:
        for n, doc in documents(path, name.endswith("journal")):
            for e in v.iter_errors(doc):
                where = "/".join(str(p) for p in e.absolute_path)
                print(f"{path}{':' + str(n) if n else ''}: /{where}: {e.message}")
                bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
