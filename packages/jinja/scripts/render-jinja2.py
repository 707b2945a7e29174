#!/usr/bin/env python3
"""The Jinja2 oracle of the property tests: reads [{"template", "context"}] as JSON on stdin and writes
[{"output"} | {"error": {"type", "message", "phase"}}] with the golden environment (make-goldens.py:
transformers' configuration, strftime_now on the fixed clock).
"""

import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("make_goldens", os.path.join(HERE, "make-goldens.py"))
make_goldens = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_goldens)
env = make_goldens.make_environment()

results = []
for case in json.load(sys.stdin):
    try:
        template = env.from_string(case["template"])
    except Exception as e:  # noqa: BLE001
        results.append({"error": {"type": type(e).__name__, "message": str(e), "phase": "parse"}})
        continue
    try:
        results.append({"output": template.render(**case.get("context", {}))})
    except Exception as e:  # noqa: BLE001
        results.append({"error": {"type": type(e).__name__, "message": str(e), "phase": "render"}})
json.dump(results, sys.stdout, ensure_ascii=False)
