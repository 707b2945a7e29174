#!/usr/bin/env python3
"""Builds the conformance goldens for @modelhub/jinja with Python's Jinja2.

Every chat template of the corpus is rendered with every conversation below through Jinja2 configured
exactly as the transformers library renders chat templates (ImmutableSandboxedEnvironment, trim_blocks,
lstrip_blocks, loopcontrols, the {% generation %} tag, raise_exception, tojson with ensure_ascii off,
strftime_now with a fixed clock). The output, or the error Jinja2 raised, is the golden.

Usage: make-goldens.py [--corpus PATH] [--out DIR]
  --corpus  chat-templates.json to read (default: ../shared/corpus/chat-templates.json from the repo root,
            falling back to the copy in src/__fixtures__)
  --out     directory for chat-templates.json (the copy tests use) and chat-goldens.json
"""

import argparse
import json
import os
import sys
from datetime import datetime

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jinja2  # noqa: E402
from jinja2.ext import Extension, loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(PACKAGE))
FIXTURES = os.path.join(PACKAGE, "src", "__fixtures__")

# The fixed clock strftime_now reads (tests pass the same local date-time to the engine).
FIXED_NOW = datetime(2024, 7, 26, 14, 30, 45)
DEFAULT_BOS = "<|bos|>"
DEFAULT_EOS = "<|eos|>"


class GenerationTag(Extension):
    """transformers' AssistantTracker: `{% generation %}...{% endgeneration %}` renders its body."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_generation_support"), [], [], body).set_lineno(lineno)

    @jinja2.pass_eval_context
    def _generation_support(self, context, caller):
        return caller()


def make_environment():
    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(format):
        return FIXED_NOW.strftime(format)

    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[GenerationTag, loopcontrols]
    )
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_current_weather",
        "description": "Get the current weather in a given location",
        "parameters": {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["location"],
        },
    },
}
TIME_TOOL = {
    "type": "function",
    "function": {
        "name": "get_time",
        "description": "Current time in a time zone",
        "parameters": {
            "type": "object",
            "properties": {"timezone": {"type": "string", "description": "IANA zone name"}},
            "required": ["timezone"],
        },
    },
}


def conversations():
    """(id, kwargs) pairs: the variables transformers passes to the template."""
    multi = [
        {"role": "user", "content": "Hello, how are you?"},
        {"role": "assistant", "content": "I'm doing great. How can I help you today?"},
        {"role": "user", "content": "I'd like to show off how chat templating works!"},
    ]
    system = [{"role": "system", "content": "You are a friendly chatbot who always responds like a pirate."}]
    tool_turns = [
        {"role": "user", "content": "What's the weather like in Paris today?"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "call_9f3b2c1a",
                    "type": "function",
                    "function": {"name": "get_current_weather", "arguments": {"location": "Paris, France", "unit": "celsius"}},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_9f3b2c1a", "name": "get_current_weather", "content": "{\"temperature\": 22, \"condition\": \"sunny\"}"},
        {"role": "assistant", "content": "It is 22°C and sunny in Paris."},
    ]
    parts = [
        {"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "What is in this image?"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "A cat sitting on a windowsill."}]},
        {"role": "user", "content": [{"type": "text", "text": "And what colour is it?"}]},
    ]
    tricky = [
        {"role": "system", "content": "  Answer in French.\nBe brief.  "},
        {"role": "user", "content": "Quote: \"it's\" \\ back\\slash, emoji 😀, tab\tend"},
        {"role": "assistant", "content": "D'accord ! <think>hmm</think> Réponse."},
        {"role": "user", "content": "Merci\n"},
    ]
    docs = [
        {"title": "Tall penguins", "text": "Emperor penguins are the tallest."},
        {"title": "Penguin habitats", "text": "Emperor penguins only live in Antarctica."},
    ]
    yield "single-user-gen", {"messages": multi[:1], "add_generation_prompt": True}
    yield "multi-turn", {"messages": multi, "add_generation_prompt": False}
    yield "multi-turn-gen", {"messages": multi, "add_generation_prompt": True}
    yield "system-multi-turn", {"messages": system + multi, "add_generation_prompt": False}
    yield "system-multi-turn-gen", {"messages": system + multi, "add_generation_prompt": True}
    yield "ends-with-assistant", {"messages": system + multi[:2], "add_generation_prompt": False}
    yield "tools", {"messages": system + tool_turns, "tools": [WEATHER_TOOL, TIME_TOOL], "add_generation_prompt": False}
    yield "tools-gen", {"messages": tool_turns[:3], "tools": [WEATHER_TOOL], "add_generation_prompt": True}
    yield "content-parts", {"messages": parts, "add_generation_prompt": True}
    yield "tricky-text", {"messages": tricky, "add_generation_prompt": True}
    yield "documents", {"messages": multi[:1], "documents": docs, "add_generation_prompt": True}
    multi_calls = [
        {"role": "user", "content": "Weather in Paris and the time in Tokyo?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get_current_weather", "arguments": "{\"location\": \"Paris\"}"}},
                {"id": "call_2", "type": "function", "function": {"name": "get_time", "arguments": "{\"timezone\": \"Asia/Tokyo\"}"}},
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "name": "get_current_weather", "content": "18°C, cloudy"},
        {"role": "tool", "tool_call_id": "call_2", "name": "get_time", "content": "21:04"},
    ]
    reasoning = [
        {"role": "user", "content": "What is 17 * 3?"},
        {"role": "assistant", "content": "<think>\n17 * 3 = 51\n</think>\n\nThe answer is 51.", "reasoning_content": "17 * 3 = 51"},
        {"role": "user", "content": "And 17 * 4?"},
    ]
    yield "parallel-tool-calls-string-args", {"messages": system + multi_calls, "tools": [WEATHER_TOOL, TIME_TOOL], "add_generation_prompt": True}
    yield "reasoning", {"messages": reasoning, "add_generation_prompt": True}
    yield "system-only", {"messages": system, "add_generation_prompt": True}
    yield "long-multi-turn", {"messages": system + multi + multi[1:] + multi[1:], "add_generation_prompt": False}


def render_all(templates):
    env = make_environment()
    convs = list(conversations())
    cases = []
    for entry in templates:
        try:
            template = env.from_string(entry["template"])
            compile_error = None
        except Exception as e:  # noqa: BLE001 - any failure is a golden
            compile_error = e
        for conv_id, conv in convs:
            case = {"template": entry["id"], "conversation": conv_id}
            if compile_error is not None:
                case["error"] = {"type": type(compile_error).__name__, "message": str(compile_error), "phase": "parse"}
                cases.append(case)
                continue
            variables = {
                "messages": conv["messages"],
                "tools": conv.get("tools"),
                "documents": conv.get("documents"),
                "add_generation_prompt": conv["add_generation_prompt"],
                "bos_token": entry.get("bos_token", DEFAULT_BOS),
                "eos_token": entry.get("eos_token", DEFAULT_EOS),
            }
            try:
                case["output"] = template.render(**variables)
            except Exception as e:  # noqa: BLE001
                case["error"] = {"type": type(e).__name__, "message": str(e), "phase": "render"}
            cases.append(case)
    return {
        "generator": "scripts/make-goldens.py",
        "jinja2": jinja2.__version__,
        "now": FIXED_NOW.isoformat(),
        "defaultBosToken": DEFAULT_BOS,
        "defaultEosToken": DEFAULT_EOS,
        "conversations": [{"id": cid, **conv} for cid, conv in convs],
        "cases": cases,
    }


def render_semantics():
    from semantic_cases import CASES

    env = make_environment()
    cases = []
    for template_source, context in CASES:
        case = {"template": template_source, "context": context}
        try:
            template = env.from_string(template_source)
        except Exception as e:  # noqa: BLE001
            case["error"] = {"type": type(e).__name__, "message": str(e), "phase": "parse"}
            cases.append(case)
            continue
        try:
            case["output"] = template.render(**context)
        except Exception as e:  # noqa: BLE001
            case["error"] = {"type": type(e).__name__, "message": str(e), "phase": "render"}
        cases.append(case)
    return {"generator": "scripts/make-goldens.py", "jinja2": jinja2.__version__, "now": FIXED_NOW.isoformat(), "cases": cases}


def write_json(path, data):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")


def main():
    parser = argparse.ArgumentParser()
    default_corpus = os.path.join(REPO, "..", "shared", "corpus", "chat-templates.json")
    if not os.path.exists(default_corpus):
        default_corpus = os.path.join(FIXTURES, "chat-templates.json")
    parser.add_argument("--corpus", default=default_corpus)
    parser.add_argument("--out", default=FIXTURES)
    args = parser.parse_args()
    with open(args.corpus, encoding="utf-8") as f:
        templates = json.load(f)
    os.makedirs(args.out, exist_ok=True)
    write_json(os.path.join(args.out, "chat-templates.json"), templates)
    write_json(os.path.join(args.out, "chat-goldens.json"), render_all(templates))
    write_json(os.path.join(args.out, "semantics-goldens.json"), render_semantics())
    print(f"wrote goldens for {len(templates)} templates to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
