import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMBINED_HOSTILE_TEXTS } from "../quoting/__fixtures__/hostile-texts.js";
import {
  HOSTILE_SUFFIX,
  type RecordCase,
  recordsFor,
  withEverythingHostile,
  withHostileTexts,
} from "./__fixtures__/records.js";
import { ALL_MODEL_LIBRARY_KEYS, getLibrarySnippets } from "./model-libraries.js";
import type { LibrarySnippet } from "./types.js";

/**
 * "Generated code is code": every library's snippets, rendered for representative records (benign, with a
 * hostile marker in every text field, and with every field hostile), parse in their language; and the
 * hostile marker only ever lands inside literals. Checks run batched: one Python process, one bash process.
 */

/** Records whose snippet parses a text field, so a marker legitimately changes the branch taken. */
const STRUCTURE_EXEMPT: Readonly<Record<string, string>> = {
  "cleanrl/named": "the id is parsed into environment, experiment and seed; a marked id does not parse",
};

interface Rendered {
  key: string;
  snippet: LibrarySnippet;
}

const rendered = new Map<string, Rendered>();
const pairs: Array<[string, string]> = [];

function render(prefix: string, recordCase: RecordCase, model: RecordCase["model"]): string[] {
  return getLibrarySnippets(model).map((snippet, i) => {
    const key = `${prefix}:${recordCase.name}#${i}`;
    rendered.set(key, { key, snippet });
    return key;
  });
}

const cases = ALL_MODEL_LIBRARY_KEYS.flatMap((library) => recordsFor(library));
const emptyLibraries: string[] = [];
const countMismatches: string[] = [];
for (const recordCase of cases) {
  const benign = render("benign", recordCase, recordCase.model);
  if (recordCase.name.endsWith("/plain") && benign.length === 0) emptyLibraries.push(recordCase.name);
  const hostile = render("hostile", recordCase, withHostileTexts(recordCase.model));
  COMBINED_HOSTILE_TEXTS.forEach((text, t) => {
    render(`all-hostile-${t}`, recordCase, withEverythingHostile(recordCase.model, text));
  });
  if (!(recordCase.name in STRUCTURE_EXEMPT)) {
    if (hostile.length !== benign.length) countMismatches.push(recordCase.name);
    benign.forEach((key, i) => {
      pairs.push([key, hostile[i]!]);
    });
  }
}

function byLanguage(language: string): Rendered[] {
  return [...rendered.values()].filter((r) => r.snippet.language === language);
}

let workDir = "";
beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), "library-snippets-"));
});
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

/** These tests start interpreters on a shared machine: allow for load. */
const SLOW_TEST_MS = 60_000;

describe("every library", () => {
  it(
    "has snippets for its plain record, each in a known language and non-empty",
    () => {
      expect(emptyLibraries).toEqual([]);
      expect(countMismatches).toEqual([]);
      for (const { key, snippet } of rendered.values()) {
        expect(["python", "js", "sh"], key).toContain(snippet.language);
        expect(snippet.content.trim().length, key).toBeGreaterThan(0);
      }
    },
    SLOW_TEST_MS,
  );
});

describe("python snippets", () => {
  it(
    "parse with ast.parse, and hostile texts stay inside string literals",
    () => {
      const python = byLanguage("python");
      expect(python.length).toBeGreaterThan(500);
      const request = {
        marker: HOSTILE_SUFFIX,
        snippets: Object.fromEntries(python.map((r) => [r.key, r.snippet.content])),
        pairs: pairs.filter(([b]) => rendered.get(b)?.snippet.language === "python"),
      };
      const out = execFileSync("python3", [join(import.meta.dirname, "__fixtures__", "check_python.py")], {
        input: JSON.stringify(request),
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      const result = JSON.parse(out) as { syntax: Record<string, string>; pairs: string[][] };
      expect(result.syntax).toEqual({});
      expect(result.pairs).toEqual([]);
    },
    SLOW_TEST_MS,
  );
});

/** Runs the snippets in one bash with no PATH: every command prints its argv instead of running. */
function traceShell(snippets: Rendered[]): { syntaxOk: boolean; argv: Map<string, string[][]> } {
  const file = join(workDir, `trace-${Math.random().toString(36).slice(2)}.sh`);
  const body = snippets.map((r) => `(\n${r.snippet.content}\n)\nprintf '\\002'\n`).join("");
  writeFileSync(
    file,
    `command_not_found_handle() { printf '%s\\0' "$@"; printf '\\001'; return 0; }\nPATH=/nonexistent\n${body}`,
  );
  const syntax = spawnSync("bash", ["-n", file], { encoding: "utf8" });
  if (syntax.status !== 0) return { syntaxOk: false, argv: new Map() };
  const run = spawnSync("/bin/bash", ["--noprofile", "--norc", file], {
    cwd: workDir,
    env: {},
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const argv = new Map<string, string[][]>();
  run.stdout
    .split("\u0002")
    .slice(0, snippets.length)
    .forEach((chunk, i) => {
      const commands = chunk
        .split("\u0001")
        .slice(0, -1)
        .map((command) => command.split("\u0000").slice(0, -1));
      argv.set(snippets[i]!.key, commands);
    });
  return { syntaxOk: true, argv };
}

describe("shell snippets", () => {
  it(
    "pass bash -n",
    () => {
      const shell = byLanguage("sh");
      expect(shell.length).toBeGreaterThan(100);
      const { syntaxOk } = traceShell(shell);
      const failing: string[] = [];
      if (!syntaxOk) {
        // Attribute the failure: check snippets one by one, up to a few culprits.
        for (const r of shell) {
          const file = join(workDir, "one.sh");
          writeFileSync(file, r.snippet.content);
          if (spawnSync("bash", ["-n", file]).status !== 0) failing.push(r.key);
          if (failing.length >= 5) break;
        }
      }
      expect({ syntaxOk, failing }).toEqual({ syntaxOk: true, failing: [] });
    },
    SLOW_TEST_MS,
  );

  it(
    "pass each hostile text to commands as exactly the argument the benign text was",
    () => {
      const shellPairs = pairs.filter(([b]) => rendered.get(b)?.snippet.language === "sh");
      expect(shellPairs.length).toBeGreaterThan(50);
      const { argv } = traceShell(shellPairs.flat().map((key) => rendered.get(key)!));
      let sawMarker = false;
      for (const [benignKey, hostileKey] of shellPairs) {
        const benign = argv.get(benignKey);
        const hostile = argv.get(hostileKey);
        expect(benign, benignKey).toBeDefined();
        const restored = hostile?.map((args) => args.map((arg) => arg.replaceAll(HOSTILE_SUFFIX, "")));
        expect(restored, hostileKey).toEqual(benign);
        sawMarker ||= hostile!.some((args) => args.some((arg) => arg.includes(HOSTILE_SUFFIX)));
      }
      expect(sawMarker).toBe(true);
    },
    SLOW_TEST_MS,
  );
});

/** Token kinds and string values of a JS module, by the TypeScript parser. */
function jsShape(code: string): { kinds: string[]; strings: string[] } {
  const source = ts.createSourceFile("snippet.mjs", code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const kinds: string[] = [];
  const strings: string[] = [];
  const visit = (node: ts.Node) => {
    kinds.push(ts.SyntaxKind[node.kind]);
    if (ts.isStringLiteralLike(node)) strings.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { kinds, strings };
}

describe("javascript snippets", () => {
  it(
    "parse as ES modules with Node's parser (one process)",
    () => {
      const scripts = byLanguage("js");
      expect(scripts.length).toBeGreaterThan(3);
      const out = execFileSync(
        process.execPath,
        [
          "--experimental-vm-modules",
          "--no-warnings",
          join(import.meta.dirname, "__fixtures__", "check-js-modules.mjs"),
        ],
        {
          input: JSON.stringify(Object.fromEntries(scripts.map((r) => [r.key, r.snippet.content]))),
          encoding: "utf8",
        },
      );
      expect(JSON.parse(out)).toEqual({});
    },
    SLOW_TEST_MS,
  );

  it(
    "pass node --check (one sample per distinct snippet shape)",
    () => {
      const benign = byLanguage("js").filter((r) => r.key.startsWith("benign:"));
      const failing = benign.filter((r, i) => {
        const file = join(workDir, `snippet-${i}.mjs`);
        writeFileSync(file, r.snippet.content);
        return spawnSync(process.execPath, ["--check", file]).status !== 0;
      });
      expect(failing.map((r) => r.key)).toEqual([]);
    },
    SLOW_TEST_MS,
  );

  it(
    "keep hostile texts inside string literals",
    () => {
      const jsPairs = pairs.filter(([b]) => rendered.get(b)?.snippet.language === "js");
      expect(jsPairs.length).toBeGreaterThan(0);
      for (const [benignKey, hostileKey] of jsPairs) {
        const benign = jsShape(rendered.get(benignKey)!.snippet.content);
        const hostile = jsShape(rendered.get(hostileKey)!.snippet.content);
        expect(hostile.kinds, hostileKey).toEqual(benign.kinds);
        expect(
          hostile.strings.map((s) => s.replaceAll(HOSTILE_SUFFIX, "")),
          hostileKey,
        ).toEqual(benign.strings);
      }
    },
    SLOW_TEST_MS,
  );
});
