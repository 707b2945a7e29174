"""Runs many Python snippets in one interpreter, each as its own __main__ (fresh globals), in its own directory,
with its own stdout and stderr. Reads a JSON list of {"id", "dir", "file"} on stdin; writes one JSON line per
snippet: {"id", "code", "stdout", "stderr"} (code 0: ran to its end; 1: raised; the exit status for SystemExit).
Loading huggingface_hub, openai and requests once instead of once per snippet is what makes thousands of
snippets take seconds rather than minutes."""

import contextlib
import io
import json
import os
import signal
import sys
import time
import traceback

TIMEOUT_SECONDS = 30


class SnippetTimeout(Exception):
    pass


def on_alarm(_signum, _frame):
    raise SnippetTimeout(f"the snippet did not finish in {TIMEOUT_SECONDS} s")


def run(entry):
    stdout, stderr = io.StringIO(), io.StringIO()
    code = 0
    os.chdir(entry["dir"])
    with open(entry["file"], encoding="utf-8") as source:
        compiled = compile(source.read(), os.path.join(entry["dir"], entry["file"]), "exec")
    signal.alarm(TIMEOUT_SECONDS)
    started = time.monotonic()
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            exec(compiled, {"__name__": "__main__", "__builtins__": __builtins__})
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException:
        code = 1
        stderr.write(traceback.format_exc())
    finally:
        signal.alarm(0)
    ms = round((time.monotonic() - started) * 1000)
    return {"id": entry["id"], "code": code, "stdout": stdout.getvalue(), "stderr": stderr.getvalue(), "ms": ms}


def main():
    signal.signal(signal.SIGALRM, on_alarm)
    out = sys.stdout
    for entry in json.load(sys.stdin):
        out.write(json.dumps(run(entry)) + "\n")
        out.flush()


main()
