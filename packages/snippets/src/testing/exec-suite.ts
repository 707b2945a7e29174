import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { InferenceProvider } from "@modelhub/inference";
import {
  type ProviderSim,
  type RecordedRequest,
  type SimModel,
  startProviderSim,
} from "@modelhub/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExecCase } from "../__fixtures__/exec-cases.js";
import { FILE_PLACEHOLDER, planSnippets } from "../generate.js";
import type { InferenceSnippet, SnippetOptions } from "../types.js";
import {
  HUB_TOKEN,
  makeWorkDir,
  OUTPUT_FILES,
  type RunResult,
  runSnippet,
  sampleBase64,
} from "./run-snippet.js";

export interface ExecSuiteOptions {
  title: string;
  cases: ExecCase[];
  options?: SnippetOptions;
  /** Extra checks of the request the provider received. */
  check?: (request: RecordedRequest, snippet: InferenceSnippet, testCase: ExecCase, run: RunResult) => void;
}

/** fal_client cannot be installed here: its snippets are compiled and checked in fal-client.test.ts. */
const NOT_INSTALLABLE = new Set(["fal_client"]);

/**
 * The body a raw snippet puts on the wire: the plan's body with the file it reads in place of the
 * placeholder (or of a file name field such as `inputs.image`), base64-encoded (as a data URL for fal's queue).
 */
function wireBody(body: unknown, fileName: string | undefined, dataUrlPrefix = ""): unknown {
  if (typeof body === "string") {
    if (body === FILE_PLACEHOLDER && fileName) return dataUrlPrefix + sampleBase64(fileName);
    return sampleBase64(body) ?? body;
  }
  if (Array.isArray(body)) return body.map((item) => wireBody(item, fileName, dataUrlPrefix));
  if (body && typeof body === "object") {
    return Object.fromEntries(
      Object.entries(body).map(([key, value]) => [key, wireBody(value, fileName, dataUrlPrefix)]),
    );
  }
  return body;
}

/** Clients whose snippets write the HTTP request themselves: the provider must get the exact body. */
const RAW_CLIENTS = new Set(["requests", "fetch", "curl"]);

function simModels(cases: ExecCase[]): SimModel[] {
  const byId = new Map<string, SimModel>();
  for (const { model, provider, providerId } of cases) {
    const entry = byId.get(model.id) ?? {
      id: model.id,
      pipeline_tag: model.pipeline_tag!,
      tags: model.tags,
      inferenceProviderMapping: {},
    };
    const task = model.tags.includes("conversational") ? "conversational" : model.pipeline_tag!;
    entry.inferenceProviderMapping![provider] = { status: "live", providerId, task };
    byId.set(model.id, entry);
  }
  return [...byId.values()];
}

/**
 * Runs every snippet generated for each case against provider-sim, exactly as pasted: the snippet must exit
 * 0, and the provider must have received an authenticated request (the exact body, for raw HTTP clients).
 */
export function describeSnippetExecution({ title, cases, options = {}, check }: ExecSuiteOptions): void {
  describe(title, () => {
    let sim: ProviderSim;
    let work: ReturnType<typeof makeWorkDir>;
    beforeAll(async () => {
      sim = await startProviderSim({ models: simModels(cases), hubTokens: [HUB_TOKEN], jobSteps: 1 });
      work = makeWorkDir();
    });
    afterAll(async () => {
      await sim?.close();
      work?.remove();
    });

    for (const testCase of cases) {
      const { model, provider, providerId } = testCase;
      const label = `${model.pipeline_tag} ${model.id} on ${provider}`;
      it(`${label}: every snippet runs`, async () => {
        const plan = planSnippets(model, undefined, provider as InferenceProvider, providerId, {
          ...options,
          hubUrl: sim.url,
          routerUrl: sim.url,
        });
        const snippets = plan?.render() ?? [];
        expect(snippets.length, "at least one snippet").toBeGreaterThan(0);
        const failures: string[] = [];
        for (const [index, snippet] of snippets.entries()) {
          if (NOT_INSTALLABLE.has(snippet.client)) continue;
          sim.clearRequests();
          const name = `${provider}-${model.id.replace(/\W+/g, "_")}-${index}-${snippet.client}`;
          const result = await runSnippet(snippet, work.dir, name);
          const where = `${snippet.language}/${snippet.client}`;
          if (result.code !== 0) {
            failures.push(
              `${where} exited ${result.code}:\n${result.stderr.slice(-1500)}\n--- snippet ---\n${snippet.content}`,
            );
            continue;
          }
          const calls = sim.requests.filter((request) => request.provider === provider);
          if (calls.length === 0) {
            failures.push(`${where}: the provider received no request`);
            continue;
          }
          const first = calls[0]!;
          expect(first.method, where).toBe("POST");
          expect(first.authScheme, where).toBe("Bearer hf_");
          if (RAW_CLIENTS.has(snippet.client) && first.json !== undefined) {
            expect(first.json, `${where} body`).toEqual(
              wireBody(plan!.providerBody, plan!.fileName, plan!.fileDataUrlPrefix),
            );
          }
          const saved = OUTPUT_FILES.some(
            (file) => existsSync(join(result.dir, file)) && statSync(join(result.dir, file)).size > 0,
          );
          expect(saved || result.stdout.trim().length > 0, `${where} printed or saved its result`).toBe(true);
          check?.(first, snippet, testCase, result);
        }
        expect(failures, failures.join("\n\n")).toEqual([]);
      });
    }
  });
}
