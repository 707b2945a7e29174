"""Runs listing calls against HF_ENDPOINT as real Python clients make them; prints one JSON answer per call.

stdin: [{"name": ..., "list_models": {kwargs}} | {"name": ..., "requests": {params}}]
- list_models: huggingface_hub's HfApi().list_models(**kwargs), exactly as a user would call it;
  `"expand": "every value list_models documents"` sends the expand values its docstring lists.
- requests: a plain requests.get of /api/models with these params (how older clients, huggingface_hub
  before its httpx port included, serialised booleans: full=True).
stdout: {name: {"models": [{...}]} | {"error": "..."}}
"""

import json
import os
import re
import sys

import requests
from huggingface_hub import HfApi

EVERY_DOCUMENTED_EXPAND = "every value list_models documents"


def documented_expand_values():
    """The values list_models' docstring gives for `expand` ("Possible values are `"author"`, ...")."""
    doc = HfApi.list_models.__doc__ or ""
    found = re.search(r"expand \(`list\[ExpandModelProperty_T\]`.*?Possible values are (.*?)\.\n", doc, re.S)
    values = re.findall(r'`"([^"`]+)"`', found.group(1)) if found else []
    if len(values) < 10:
        raise RuntimeError(f"list_models' docstring no longer lists the expand values: {values}")
    return values


def summary(model):
    return {
        "id": model.id,
        "has_config": model.config is not None,
        "has_card_data": model.card_data is not None,
        "has_siblings": model.siblings is not None,
        "safetensors_total": model.safetensors.total if model.safetensors else None,
        "gated": model.gated,
        "downloads": model.downloads,
        "likes": model.likes,
    }


def main():
    api = HfApi()
    answers = {}
    for call in json.load(sys.stdin):
        try:
            if "list_models" in call:
                kwargs = dict(call["list_models"])
                if kwargs.get("expand") == EVERY_DOCUMENTED_EXPAND:
                    kwargs["expand"] = documented_expand_values()
                models = [summary(model) for model in api.list_models(**kwargs)]
            else:
                response = requests.get(f"{os.environ['HF_ENDPOINT']}/api/models", params=call["requests"], timeout=30)
                if response.status_code != 200:
                    raise RuntimeError(f"{response.status_code} {response.text}")
                models = [{"id": item["id"], "keys": sorted(item)} for item in response.json()]
            answers[call["name"]] = {"models": models}
        except Exception as error:  # reported to the test, which names the call that failed
            answers[call["name"]] = {"error": f"{type(error).__name__}: {error}"}
    json.dump(answers, sys.stdout)


main()
