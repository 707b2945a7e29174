import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidHubUrlError, otherHubUrl } from "./hub-endpoint.js";
import { recordsFor } from "./libraries/__fixtures__/records.js";
import { ALL_MODEL_LIBRARY_KEYS, getLibrarySnippets } from "./libraries/model-libraries.js";
import fixtures from "./local-apps/__fixtures__/models.json" with { type: "json" };
import { checkSyntax } from "./local-apps/__fixtures__/shell-harness.js";
import { downloadFromHub, getLocalAppsForModel, LOCAL_APPS } from "./local-apps/index.js";
import type { ModelData } from "./model-data.js";

const HUB = "http://hub.internal:8080";
const models = fixtures as Record<keyof typeof fixtures, ModelData>;

describe("otherHubUrl", () => {
  it("is undefined for huggingface.co, however written, and the URL without slashes for another hub", () => {
    for (const url of [undefined, "https://huggingface.co", "https://huggingface.co/", "https://hf.co"]) {
      expect(otherHubUrl(url)).toBeUndefined();
    }
    expect(otherHubUrl(`${HUB}/`)).toBe(HUB);
    expect(otherHubUrl("http://127.0.0.1:5173")).toBe("http://127.0.0.1:5173");
    expect(otherHubUrl("https://hub.example.com/prefix/")).toBe("https://hub.example.com/prefix");
  });

  it("refuses a URL that could not be written into code as it is", () => {
    for (const url of ["ftp://hub", "https://hub.example/'; rm -rf /", 'https://a"b', "hub.example"]) {
      expect(() => otherHubUrl(url)).toThrow(InvalidHubUrlError);
    }
  });
});

describe("library snippets on another hub", () => {
  const cases = ALL_MODEL_LIBRARY_KEYS.flatMap((library) => recordsFor(library));

  it("are the public generator's own on huggingface.co", () => {
    for (const { model } of cases) {
      const plain = getLibrarySnippets(model);
      expect(getLibrarySnippets(model, { hubUrl: "https://huggingface.co" })).toEqual(plain);
    }
  });

  it("set HF_ENDPOINT first in every snippet that names the repository, and only there", () => {
    let pointed = 0;
    for (const { model } of cases) {
      const plain = getLibrarySnippets(model);
      const onHub = getLibrarySnippets(model, { hubUrl: HUB });
      expect(onHub).toHaveLength(plain.length);
      onHub.forEach((snippet, index) => {
        const before = plain[index]!;
        if (!before.content.includes(model.id)) {
          expect(snippet).toEqual(before);
          return;
        }
        pointed++;
        expect(
          snippet.content.endsWith(
            before.content.replaceAll(`https://huggingface.co/${model.id}/`, `${HUB}/${model.id}/`),
          ),
        ).toBe(true);
        if (snippet.language === "python") {
          expect(snippet.content).toMatch(
            /^# Download from this hub[^\n]*\nimport os\n\nos\.environ\["HF_ENDPOINT"\] = "http:\/\/hub\.internal:8080"\n/,
          );
        } else if (snippet.language === "sh") {
          expect(snippet.content).toMatch(
            /^# Download from this hub[^\n]*\nexport HF_ENDPOINT=http:\/\/hub\.internal:8080\n/,
          );
        } else {
          expect(snippet.content).toContain(HUB);
        }
      });
    }
    expect(pointed).toBeGreaterThan(100);
  });

  it("stay valid Python and shell", () => {
    const python: Record<string, string> = {};
    const shell: string[] = [];
    for (const { name, model } of cases) {
      getLibrarySnippets(model, { hubUrl: HUB }).forEach((snippet, index) => {
        if (snippet.language === "python") python[`${name}#${index}`] = snippet.content;
        if (snippet.language === "sh") shell.push(snippet.content);
      });
    }
    const out = execFileSync(
      "python3",
      [join(import.meta.dirname, "libraries", "__fixtures__", "check_python.py")],
      {
        input: JSON.stringify({ marker: "\u0000unused", snippets: python, pairs: [] }),
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    expect((JSON.parse(out) as { syntax: Record<string, string> }).syntax).toEqual({});
    expect([...checkSyntax(shell)]).toEqual([]);
  }, 60_000);

  it("gives Transformers.js its remote host", () => {
    const snippets = getLibrarySnippets(
      { ...models.transformersChat, library_name: "transformers.js", tags: ["transformers.js"] },
      { hubUrl: HUB },
    );
    const code = snippets.find((snippet) => snippet.language === "js")?.content ?? "";
    expect(code).toMatch(/^import \{ env \} from "@huggingface\/transformers";\n/);
    expect(code).toContain(`env.remoteHost = "${HUB}/";`);
    // The install line fetches nothing from a hub: left as it is.
    expect(snippets.find((snippet) => snippet.language === "sh")?.content).toBe(
      "npm i @huggingface/transformers",
    );
  });
});

describe("local apps on another hub", () => {
  const options = { hubUrl: HUB };

  it("prefix the download with HF_ENDPOINT for the tools that read it, and name llama.cpp's exact file", () => {
    const [brew] = LOCAL_APPS["llama.cpp"].snippet(models.ggufChat, undefined, options);
    expect(brew?.content[0]).toContain(
      `HF_ENDPOINT=${HUB} llama-server --hf-repo bartowski/Llama-3.2-1B-Instruct-GGUF --hf-file Llama-3.2-1B-Instruct-Q4_K_M.gguf`,
    );
    const [vllm, vllmDocker] = LOCAL_APPS.vllm.snippet(models.transformersChat, undefined, options);
    expect(vllm?.content[0]).toContain(`HF_ENDPOINT=${HUB} vllm serve ${models.transformersChat.id}`);
    expect(vllmDocker?.content[0]).toContain(`-e HF_ENDPOINT=${HUB} \\`);
    const [node] = LOCAL_APPS["node-llama-cpp"].snippet(models.ggufChat, undefined, options);
    expect(node?.content[0]).toMatch(new RegExp(`^HF_ENDPOINT=${HUB} npx -y node-llama-cpp chat`));
    const [server] = LOCAL_APPS.pi.snippet(models.ggufChat, undefined, options);
    expect(server?.content[0]).toMatch(new RegExp(`^HF_ENDPOINT=${HUB} llama-server --hf-repo`));
  });

  it("download this hub's file for the tools that pull from huggingface.co only", () => {
    const [ollama] = LOCAL_APPS.ollama.snippet(models.ggufChat, "Llama-3.2-1B-Instruct-Q8_0.gguf", options);
    expect(ollama?.content).toEqual([
      [
        `curl -L -o Llama-3.2-1B-Instruct-Q8_0.gguf ${HUB}/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q8_0.gguf`,
        "printf 'FROM ./%s\\n' Llama-3.2-1B-Instruct-Q8_0.gguf > Modelfile",
        "ollama create llama-3.2-1b-instruct-gguf:q8_0 -f Modelfile",
        "ollama run llama-3.2-1b-instruct-gguf:q8_0",
      ].join("\n"),
    ]);
    const [docker] = LOCAL_APPS["docker-model-runner"].snippet(
      { ...models.ggufChat, private: true },
      undefined,
      options,
    );
    expect(docker?.content[0]).toContain('curl -L -H "Authorization: Bearer $HF_TOKEN" -o ');
    expect(docker?.content[0]).toContain(
      'docker model package --gguf "$PWD"/Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    );
    expect(downloadFromHub(models.ggufChat, undefined, options)?.content).toEqual([
      `HF_ENDPOINT=${HUB} hf download bartowski/Llama-3.2-1B-Instruct-GGUF Llama-3.2-1B-Instruct-Q4_K_M.gguf --local-dir Llama-3.2-1B-Instruct-GGUF`,
    ]);
    expect(downloadFromHub(models.ggufChat)).toBeUndefined();
  });

  it("write valid shell for every app and model, and the public hub's commands on huggingface.co", () => {
    const blocks: string[] = [];
    for (const model of Object.values(models)) {
      for (const { app } of getLocalAppsForModel(model)) {
        if (app.kind !== "snippet") continue;
        expect(app.snippet(model, undefined, { hubUrl: "https://huggingface.co" })).toEqual(
          app.snippet(model),
        );
        for (const snippet of app.snippet(model, undefined, options)) blocks.push(...snippet.content);
      }
    }
    expect(blocks.length).toBeGreaterThan(20);
    expect([...checkSyntax(blocks)]).toEqual([]);
  });
});
