/**
 * `GET /api/datasets` and `/api/spaces` as huggingface_hub (Python, from .venv) calls them: repositories made
 * and carded with `create_repo` / `upload_file`, then listed with `list_datasets(filter=, language=,
 * task_categories=)` and `list_spaces(filter=)` against a hub on loopback.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const VENV_PYTHON = fileURLToPath(new URL("../../../../.venv/bin/python", import.meta.url));

const SCRIPT = `
import json, os
from huggingface_hub import HfApi
api = HfApi()
cards = {
    ("dataset", "alice/reviews"): "---\\nlicense: mit\\nlanguage: [en, fr]\\ntask_categories: [text-classification]\\n---\\n",
    ("dataset", "alice/poems"): "---\\nlicense: apache-2.0\\nlanguage: de\\ntags: [poetry]\\n---\\n",
    ("dataset", "alice/bare"): None,
}
for (kind, repo), card in cards.items():
    api.create_repo(repo, repo_type=kind)
    if card:
        api.upload_file(path_or_fileobj=card.encode(), path_in_repo="README.md", repo_id=repo, repo_type=kind)
api.create_repo("alice/chat", repo_type="space", space_sdk="gradio")
api.create_repo("alice/board", repo_type="space", space_sdk="streamlit")
ids = lambda infos: sorted(info.id for info in infos)
print(json.dumps({
    "english": ids(api.list_datasets(language="en")),
    "german_poetry": ids(api.list_datasets(filter="poetry", language="de")),
    "classification": ids(api.list_datasets(task_categories="text-classification")),
    "mit": ids(api.list_datasets(filter="license:mit")),
    "none": ids(api.list_datasets(filter=["poetry", "license:mit"])),
    "all": ids(api.list_datasets()),
    "tags": {info.id: info.tags for info in api.list_datasets(author="alice")},
    "gradio": ids(api.list_spaces(filter="gradio")),
    "streamlit": ids(api.list_spaces(filter="streamlit")),
}))
`;

const hub = useTestHub();

describe("dataset and space listings through huggingface_hub", () => {
  it("lists by filter, language and task category, and spaces by SDK", async () => {
    const token = await userToken(hub.store, "alice");
    // Asynchronously: the hub answers from this same process.
    const run = await promisify(execFile)(VENV_PYTHON, ["-c", SCRIPT], {
      env: { ...process.env, HF_ENDPOINT: hub.url, HF_TOKEN: token, HF_HUB_DISABLE_TELEMETRY: "1" },
      encoding: "utf8",
      timeout: 60_000,
    });
    const answer = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(answer).toMatchObject({
      english: ["alice/reviews"],
      german_poetry: ["alice/poems"],
      classification: ["alice/reviews"],
      mit: ["alice/reviews"],
      none: [],
      all: ["alice/bare", "alice/poems", "alice/reviews"],
      gradio: ["alice/chat"],
      streamlit: ["alice/board"],
    });
    expect(answer.tags).toEqual({
      "alice/bare": [],
      "alice/poems": ["poetry", "license:apache-2.0", "language:de"],
      "alice/reviews": ["license:mit", "language:en", "language:fr", "task_categories:text-classification"],
    });
  }, 90_000);
});
