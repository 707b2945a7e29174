// The checks every runtime runs against the packages as published (their `npm pack` contents, installed
// beside this file). Plain JavaScript with no runtime-specific API, so the same file runs unbundled in Node,
// Bun and Deno and bundled in Chromium and workerd. Every check runs even when an earlier one fails; the
// results go back to the Vitest harness (src/runtime-matrix.test.ts), which asserts them and also reads
// provider-sim's request log: each runtime's calls carry its name as X-HF-Bill-To.
import { AbortError, InferenceClient, InferenceError } from "@modelhub/inference";
import { precompileTemplate, renderChatTemplate, Template } from "@modelhub/jinja";
import { CompiledTemplate } from "@modelhub/jinja/precompiled";
import { getInferenceSnippets } from "@modelhub/snippets";
import { getDefaultModel, TASKS_DATA } from "@modelhub/tasks";

/** Models the harness registers in provider-sim (see src/sim.ts). */
export const MATRIX_MODELS = {
  chat: { id: "matrix/chat", providerId: "matrix/chat-turbo" },
  image: { id: "matrix/image", providerId: "matrix/image-turbo" },
  /** Mapped to a provider whose every answer the harness delays: only an abort ends the call early. */
  slowChat: { id: "matrix/slow-chat", provider: "fireworks-ai", providerId: "matrix/slow-chat" },
};

const CHATML = `{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] | trim + '<|im_end|>\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}`;

class CheckFailed extends Error {}

function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

function describeError(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Rejects with the error the call ended with, or fails when it did not end within `ms`. */
async function failureOf(promise, ms) {
  let timer;
  const deadline = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), ms);
  });
  try {
    const outcome = await Promise.race([
      promise.then(
        () => ({ value: true }),
        (error) => ({ error }),
      ),
      deadline,
    ]);
    check(!outcome.timedOut, `the call did not end within ${ms} ms of the abort`);
    check(!outcome.value, "the call succeeded; expected it to be aborted");
    return outcome.error;
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once provider-sim's request log (its admin API) holds a request from `runtime` on `path`. */
async function simReceived(simUrl, runtime, path, ms = 5000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const log = await (await fetch(`${simUrl}/__sim/requests`)).json();
    if (log.some((request) => request.path === path && request.headers["x-hf-bill-to"] === runtime)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new CheckFailed(`provider-sim received no ${path} from ${runtime} within ${ms} ms`);
}

function checksFor(simUrl, runtime) {
  const client = new InferenceClient("hf_runtime_matrix", {
    hubUrl: simUrl,
    routerUrl: simUrl,
    billTo: runtime,
    retryOnError: false,
  });
  const messages = [{ role: "user", content: `Hello from ${runtime}` }];

  return {
    "inference: chat": async () => {
      const output = await client.chatCompletion({
        model: MATRIX_MODELS.chat.id,
        provider: "together",
        messages,
        max_tokens: 20,
      });
      const content = output.choices[0]?.message?.content;
      check(typeof content === "string" && content.length > 0, `no answer text: ${JSON.stringify(output)}`);
      return `together answered ${content.length} characters`;
    },
    "inference: chat from the cached mapping": async () => {
      // A second routed chat of the same model: its mapping is cached now (the first one fetched it), so it
      // takes the client's routed fast path (tasks/routed-chat.ts), and must reach the same provider.
      await client.chatCompletion({ model: MATRIX_MODELS.chat.id, provider: "together", messages });
      const output = await client.chatCompletion({
        model: MATRIX_MODELS.chat.id,
        provider: "together",
        messages,
        max_tokens: 20,
      });
      const content = output.choices[0]?.message?.content;
      check(typeof content === "string" && content.length > 0, `no answer text: ${JSON.stringify(output)}`);
      return `together answered ${content.length} characters`;
    },
    "inference: chat at an endpointUrl": async () => {
      // An OpenAI-compatible server called directly, no routing: the client's own fast path for it.
      const output = await client.chatCompletion({
        endpointUrl: `${simUrl}/together`,
        model: MATRIX_MODELS.chat.providerId,
        messages,
        max_tokens: 20,
      });
      const content = output.choices[0]?.message?.content;
      check(typeof content === "string" && content.length > 0, `no answer text: ${JSON.stringify(output)}`);
      return `the endpoint answered ${content.length} characters`;
    },
    "inference: chat stream": async () => {
      let chunks = 0;
      let text = "";
      for await (const chunk of client.chatCompletionStream({
        model: MATRIX_MODELS.chat.id,
        provider: "together",
        messages,
      })) {
        chunks += 1;
        text += chunk.choices[0]?.delta?.content ?? "";
      }
      check(chunks >= 2, `expected several chunks, got ${chunks}`);
      check(text.length > 0, "the stream carried no text");
      return `${chunks} chunks, ${text.length} characters`;
    },
    "inference: text-to-image": async () => {
      const image = await client.textToImage({
        model: MATRIX_MODELS.image.id,
        provider: "together",
        inputs: "a lighthouse at dusk",
      });
      check(image instanceof Blob, `expected a Blob, got ${Object.prototype.toString.call(image)}`);
      const bytes = new Uint8Array(await image.arrayBuffer());
      const isPng = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
      const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
      check(isPng || isJpeg, `not a PNG or JPEG (first bytes ${Array.from(bytes.slice(0, 4))})`);
      return `${image.type || "untyped"} Blob of ${bytes.length} bytes`;
    },
    "inference: abort while waiting": async () => {
      const controller = new AbortController();
      const call = client.chatCompletion(
        {
          model: MATRIX_MODELS.slowChat.id,
          provider: MATRIX_MODELS.slowChat.provider,
          messages,
        },
        { signal: controller.signal },
      );
      try {
        // Abort once the provider has the request (and holds it for 10 s): the wait is what is cut short.
        await simReceived(
          simUrl,
          runtime,
          `/${MATRIX_MODELS.slowChat.provider}/inference/v1/chat/completions`,
        );
      } finally {
        controller.abort();
      }
      const error = await failureOf(call, 3000);
      check(AbortError.isInstance(error), `expected an AbortError, got ${describeError(error)}`);
      return "AbortError while the provider held the request";
    },
    "inference: abort mid-stream": async () => {
      const controller = new AbortController();
      let chunks = 0;
      const reading = (async () => {
        for await (const _chunk of client.chatCompletionStream(
          { model: MATRIX_MODELS.chat.id, provider: "together", messages },
          { signal: controller.signal },
        )) {
          chunks += 1;
          controller.abort();
        }
      })();
      const error = await failureOf(reading, 3000);
      check(AbortError.isInstance(error), `expected an AbortError, got ${describeError(error)}`);
      check(chunks === 1, `read ${chunks} chunks after the abort`);
      return "AbortError after the first chunk";
    },
    "inference: typed errors": async () => {
      const error = await failureOf(
        client.chatCompletion({ model: "matrix/unknown", provider: "together", messages }),
        5000,
      );
      check(InferenceError.isInstance(error), `expected an InferenceError, got ${describeError(error)}`);
      return error.name;
    },
    snippets: async () => {
      const snippets = getInferenceSnippets(
        { id: MATRIX_MODELS.chat.id, pipeline_tag: "text-generation", tags: ["conversational"] },
        undefined,
        "together",
        MATRIX_MODELS.chat.providerId,
        { streaming: true, routerUrl: simUrl },
      );
      const clients = snippets.map((snippet) => `${snippet.language}/${snippet.client}`);
      for (const expected of ["python/huggingface_hub", "python/openai", "js/openai", "sh/curl"]) {
        check(clients.includes(expected), `no ${expected} snippet among ${clients.join(", ")}`);
      }
      const curl = snippets.find((snippet) => snippet.client === "curl").content;
      // Through the router (no provider key given): its OpenAI-compatible route, the provider in the model.
      check(curl.includes(`${simUrl}/v1/chat/completions`), `curl does not call the router:\n${curl}`);
      check(curl.includes(`"${MATRIX_MODELS.chat.id}:together"`), `curl does not name the model:\n${curl}`);
      return `${snippets.length} snippets (${clients.join(", ")})`;
    },
    jinja: async () => {
      const rendered = renderChatTemplate(CHATML, {
        messages: [
          { role: "system", content: "Be brief. " },
          { role: "user", content: "Hi" },
        ],
        add_generation_prompt: true,
      });
      const expected =
        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n";
      check(rendered === expected, `rendered ${JSON.stringify(rendered)}`);
      const sorted = new Template(
        "{{ items | sort(attribute='n') | map(attribute='n') | join(',') }}",
      ).render({
        items: [{ n: 3 }, { n: 1 }, { n: 2 }],
      });
      check(sorted === "1,2,3", `sort rendered ${JSON.stringify(sorted)}`);
      let raised = "";
      try {
        renderChatTemplate("{{ raise_exception('no system role') }}", { messages: [] });
      } catch (error) {
        raised = describeError(error);
      }
      check(raised.includes("no system role"), `raise_exception gave ${JSON.stringify(raised)}`);
      // The subpath export that renders templates parsed at build time, without the parser.
      const compiled = CompiledTemplate.fromPrecompiled(precompileTemplate(CHATML));
      const fromPrecompiled = compiled.render({ messages: [{ role: "user", content: "Hi" }] });
      check(
        fromPrecompiled === "<|im_start|>user\nHi<|im_end|>\n",
        `precompiled rendered ${JSON.stringify(fromPrecompiled)}`,
      );
      return "ChatML rendered (from source and precompiled), sort, raise_exception";
    },
    tasks: async () => {
      const count = Object.keys(TASKS_DATA).length;
      check(count >= 50, `only ${count} tasks in the catalogue`);
      check(TASKS_DATA["text-to-image"]?.label === "Text-to-Image", "text-to-image has no label");
      const model = getDefaultModel("text-classification");
      check(typeof model === "string" && model.includes("/"), `default model ${JSON.stringify(model)}`);
      return `${count} tasks; text-classification defaults to ${model}`;
    },
  };
}

/**
 * Runs every check against provider-sim at `simUrl`; `runtime` names the runtime in the results and in the
 * requests (X-HF-Bill-To). Never throws: a failed check is a result with `ok: false`.
 */
export async function runChecks(simUrl, runtime) {
  const results = [];
  for (const [name, run] of Object.entries(checksFor(simUrl, runtime))) {
    const started = Date.now();
    try {
      const detail = await run();
      results.push({ name, ok: true, detail, ms: Date.now() - started });
    } catch (error) {
      results.push({ name, ok: false, detail: describeError(error), ms: Date.now() - started });
    }
  }
  return results;
}

/** The runtime running this, as it names itself. */
export function runtimeVersion() {
  if (globalThis.Deno?.version) return `Deno ${globalThis.Deno.version.deno}`;
  if (globalThis.Bun?.version) return `Bun ${globalThis.Bun.version}`;
  if (globalThis.process?.versions?.node) return `Node ${globalThis.process.versions.node}`;
  return globalThis.navigator?.userAgent ?? "unknown";
}

/** The one line a runtime prints for the harness. */
export const RESULT_MARKER = "MATRIX-RESULT ";

export function resultLine(runtime, version, results) {
  return `${RESULT_MARKER}${JSON.stringify({ runtime, version, results })}`;
}
