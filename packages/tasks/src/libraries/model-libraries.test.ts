import { describe, expect, it } from "vitest";
import { isPipelineType } from "../pipelines.js";
import { LIBRARY_TASK_MAPPING } from "./library-to-tasks.js";
import {
  ALL_MODEL_LIBRARY_KEYS,
  FILTERABLE_MODEL_LIBRARY_KEYS,
  getLibrarySnippets,
  isModelLibraryKey,
  MODEL_LIBRARIES,
} from "./model-libraries.js";
import type { ModelLibrary } from "./types.js";

/** A file-path query: field:value terms joined by AND / OR (values quoted, or bare for wildcards). */
const DOWNLOAD_QUERY = /^\s*[a-z_]+:("[^"]+"|[^\s"]+)(\s+(AND|OR)\s+[a-z_]+:("[^"]+"|[^\s"]+))*\s*$/;

describe("MODEL_LIBRARIES", () => {
  const entries = ALL_MODEL_LIBRARY_KEYS.map((key) => [key, MODEL_LIBRARIES[key] as ModelLibrary] as const);

  it("has well-formed entries", () => {
    for (const [key, library] of entries) {
      expect(library.prettyLabel.trim(), key).not.toBe("");
      expect(library.repoName.trim(), key).not.toBe("");
      expect(new URL(library.repoUrl).protocol, key).toBe("https:");
      if (library.docsUrl !== undefined) expect(new URL(library.docsUrl).protocol, key).toBe("https:");
      expect(typeof library.filter, key).toBe("boolean");
      if (library.countDownloads !== undefined) expect(library.countDownloads, key).toMatch(DOWNLOAD_QUERY);
    }
  });

  it("lists filters among its keys, sorted", () => {
    expect(FILTERABLE_MODEL_LIBRARY_KEYS.every((key) => MODEL_LIBRARIES[key].filter)).toBe(true);
    expect([...ALL_MODEL_LIBRARY_KEYS].sort()).toEqual(ALL_MODEL_LIBRARY_KEYS);
  });

  it("maps libraries to pipeline tasks it knows", () => {
    for (const [library, tasks] of Object.entries(LIBRARY_TASK_MAPPING)) {
      expect(isModelLibraryKey(library), library).toBe(true);
      for (const task of tasks ?? []) expect(isPipelineType(task), `${library}: ${task}`).toBe(true);
    }
  });

  it("gives no snippets for a model without a known library", () => {
    expect(getLibrarySnippets({ id: "acme/x", tags: [] })).toEqual([]);
    expect(getLibrarySnippets({ id: "acme/x", tags: [], library_name: "no-such-library" })).toEqual([]);
    expect(getLibrarySnippets({ id: "acme/x", tags: [], library_name: "__proto__" })).toEqual([]);
    expect(getLibrarySnippets({ id: "acme/x", tags: [], library_name: "toString" })).toEqual([]);
  });
});
