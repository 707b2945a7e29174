import { renderChatTemplate, TemplateError } from "@modelhub/jinja";
import type { Llama, LlamaContext, LlamaModel, Token, TokenBias } from "node-llama-cpp";
import { HubError, InvalidInputError } from "../errors.js";
import type { Logger } from "../logger.js";
import { type Admission, createAdmission } from "./local-admission.js";
import { samplerSeed } from "./local-seed.js";
import { createStopScan } from "./local-stop.js";

/** The limits of the built-in llama.cpp provider (LOCAL_PROVIDER_* settings). */
export interface LocalEngineLimits {
  /** Calls generating at once (one llama.cpp sequence each). */
  concurrency: number;
  /** Calls waiting for a slot; past it a call is refused with 503 and Retry-After. */
  queue: number;
  /** A model not called for this long is unloaded (its weights and KV cache freed). */
  idleMs: number;
  /** Tokens of prompt plus answer per call (the KV cache is this times `concurrency`). */
  contextSize: number;
  /** CPU threads llama.cpp uses for one evaluation. */
  threads: number;
  /** Models held in memory at once; loading one more unloads the least recently used idle one. */
  maxLoadedModels: number;
  retryAfterSeconds: number;
  /**
   * The longest one call may take in the provider, from its arrival: its wait for a slot, the model's load and
   * the generation. Past it the call ends with LocalAnswerTimeoutError (a whole answer's 504; a stream's error
   * event). A whole answer's head comes only at its end, so the router's timeout for this provider's head is
   * set past this one (own-providers-registry.ts), never the other way round.
   */
  answerMs: number;
}

export const DEFAULT_LOCAL_ENGINE_LIMITS: LocalEngineLimits = {
  concurrency: 2,
  queue: 6,
  idleMs: 5 * 60_000,
  contextSize: 2048,
  threads: 2,
  maxLoadedModels: 1,
  retryAfterSeconds: 2,
  // 2048 tokens of a 7-8B model at Q4 on 2 threads take 5-10 minutes.
  answerMs: 15 * 60_000,
};

/** A call that took longer than the local provider's answer limit (LocalEngineLimits.answerMs). */
export class LocalAnswerTimeoutError extends HubError {
  constructor(answerMs: number) {
    super(
      504,
      "local_answer_timeout",
      `The local llama.cpp provider did not finish the answer within its limit of ${answerMs / 1000} s ` +
        "(waiting for a slot, loading the model and generating): ask for fewer tokens (max_tokens), retry when it " +
        "is less busy, or raise LOCAL_PROVIDER_ANSWER_SECONDS.",
    );
  }
}

/**
 * Characters of prompt per token of context past which a prompt is refused before it is tokenized: no text
 * averages that many characters a token, and llama.cpp tokenizes on this thread in time that grows faster than
 * the text (64 kB took 1 s with a SentencePiece vocabulary; 4.8 MB held the hub for over ten minutes).
 */
const MAX_PROMPT_CHARS_PER_TOKEN = 12;

/** What a call asks for: a chat (rendered with the model's own template) or a plain prompt. */
export type LocalPrompt = { messages: unknown[] } | { prompt: string };

export interface LocalSampling {
  maxTokens: number;
  temperature: number;
  topP?: number;
  /**
   * Seeds the sampler (OpenAI's 64-bit range, folded to llama.cpp's 32 bits by samplerSeed); unset,
   * node-llama-cpp seeds it with the time in seconds.
   */
  seed?: number;
  /** The answer ends before the first of these (not included), finish reason "stop". */
  stop?: readonly string[];
  /**
   * OpenAI's penalties, which llama.cpp's penalties sampler applies as OpenAI defines them: each token's logit
   * less its count in the answer so far times `frequencyPenalty`, less `presencePenalty` if the count is not 0.
   */
  frequencyPenalty?: number;
  presencePenalty?: number;
  /** Added to the logit of each token (by the model's own token ids) before sampling, as OpenAI does. */
  logitBias?: ReadonlyMap<number, number>;
}

/** One piece of the answer, then the end with the tokenizer's counts. */
export type LocalPiece =
  | { text: string }
  | {
      done: true;
      finishReason: "stop" | "length";
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    };

interface Loaded {
  /** The served name (`owner/name@QUANT`) this file was loaded for. */
  name: string;
  /** The file on local disk (named by its sha256): the key of `loaded`. */
  path: string;
  model: LlamaModel;
  context: LlamaContext;
  chatTemplate: string | undefined;
  active: number;
  lastUsed: number;
  idleTimer: NodeJS.Timeout | undefined;
}

/**
 * The built-in provider's llama.cpp, in this process through node-llama-cpp (its CPU build: see
 * docs/decisions/local-provider.md): each model loaded on its first call and unloaded when idle, at most
 * `concurrency` calls generating and `queue` waiting (local-admission.ts), chat prompts rendered with the
 * model's own template by packages/jinja, and the usage counted by the model's own tokenizer.
 */
export function createLocalEngine(deps: {
  limits: LocalEngineLimits;
  /** The GGUF file on local disk for a served name (local-provider-service.ts copies it out of the hub). */
  modelPath(servedName: string): Promise<string>;
  logger: Logger;
}) {
  const { limits } = deps;
  const admission: Admission = createAdmission(limits);
  // Keyed by the file's local path, which names its sha256: a new commit of the model is another file, loaded
  // on the next call, while calls already running finish on the old one.
  const loaded = new Map<string, Promise<Loaded>>();
  const loadedNames = new Map<string, string>();
  let llama: Promise<Llama> | undefined;
  let loads = 0;
  // A file llama.cpp could not load, by path (its sha256), and when: refused without a new try for
  // FAILED_LOAD_RETRY_MS. A load is the costliest thing the engine does and evicts idle models first, so
  // every call to a broken file would otherwise unload the models other callers use.
  const failedLoads = new Map<string, number>();
  let loadFailures = 0;

  function runtime(): Promise<Llama> {
    llama ??= import("node-llama-cpp").then(({ getLlama, LlamaLogLevel }) =>
      getLlama({
        // The CPU build only: the GPU builds are not installed (stubs/node-llama-cpp-gpu), nothing is built
        // or downloaded at run time.
        gpu: false,
        build: "never",
        skipDownload: true,
        progressLogs: false,
        logLevel: LlamaLogLevel.error,
      }),
    );
    return llama;
  }

  async function unload(path: string, entry: Loaded): Promise<void> {
    clearTimeout(entry.idleTimer);
    loaded.delete(path);
    loadedNames.delete(path);
    await entry.context.dispose();
    await entry.model.dispose();
    deps.logger.log("info", "local model unloaded", { model: entry.name });
  }

  async function evictForRoom(name: string): Promise<void> {
    const settled = (
      await Promise.all(
        [...loaded].map(async ([path, pending]) => [path, await pending.catch(() => undefined)] as const),
      )
    ).filter((pair): pair is readonly [string, Loaded] => pair[1] !== undefined);
    // An older revision of the same model goes first once no call uses it.
    for (const stale of settled.filter(([, entry]) => entry.name === name && entry.active === 0)) {
      settled.splice(settled.indexOf(stale), 1);
      await unload(stale[0], stale[1]);
    }
    while (settled.length >= limits.maxLoadedModels) {
      const idle = settled
        .filter(([, entry]) => entry.active === 0)
        .sort((a, b) => a[1].lastUsed - b[1].lastUsed);
      const oldest = idle[0];
      if (!oldest) {
        throw new HubError(
          503,
          "local_provider_busy",
          `The local provider holds ${limits.maxLoadedModels} model(s), all in use: retry later, or raise LOCAL_PROVIDER_MAX_MODELS.`,
        );
      }
      settled.splice(settled.indexOf(oldest), 1);
      await unload(oldest[0], oldest[1]);
    }
  }

  async function load(name: string): Promise<Loaded> {
    // Resolved on every call: the model's file at main now (copied out of the hub the first time).
    const path = await deps.modelPath(name);
    const known = loaded.get(path);
    if (known) return known;
    const failedAt = failedLoads.get(path);
    if (failedAt !== undefined && Date.now() - failedAt < FAILED_LOAD_RETRY_MS) throw unloadable(name);
    const pending = (async () => {
      await evictForRoom(name);
      const engine = await runtime();
      const model = await engine.loadModel({ modelPath: path }).catch((error: unknown) => {
        // A corrupt file, lying tensor sizes, an architecture llama.cpp does not know: the operator gets
        // llama.cpp's words in the log, the caller what to do (not this machine's paths).
        deps.logger.log("error", "local model failed to load", { model: name, error: String(error) });
        loadFailures++;
        const now = Date.now();
        for (const [failed, at] of failedLoads)
          if (now - at >= FAILED_LOAD_RETRY_MS) failedLoads.delete(failed);
        failedLoads.set(path, now);
        throw unloadable(name);
      });
      const context = await model.createContext({
        contextSize: Math.min(limits.contextSize, model.trainContextSize),
        sequences: limits.concurrency,
        threads: limits.threads,
      });
      const template = model.fileInfo.metadata.tokenizer?.chat_template;
      loads++;
      deps.logger.log("info", "local model loaded", { model: name, bytes: model.size });
      return {
        name,
        path,
        model,
        context,
        chatTemplate: typeof template === "string" ? template : undefined,
        active: 0,
        lastUsed: Date.now(),
        idleTimer: undefined,
      } satisfies Loaded;
    })();
    loaded.set(path, pending);
    loadedNames.set(path, name);
    pending.catch(() => {
      loaded.delete(path);
      loadedNames.delete(path);
    });
    return pending;
  }

  function promptText(entry: Loaded, prompt: LocalPrompt, maxChars: number): string {
    if ("prompt" in prompt) return prompt.prompt;
    if (!entry.chatTemplate) {
      throw new InvalidInputError(
        "This model's GGUF file has no chat template (tokenizer.chat_template): call /v1/completions with a prompt instead.",
      );
    }
    const tokens = entry.model.tokens;
    try {
      return renderChatTemplate(
        entry.chatTemplate,
        {
          messages: prompt.messages,
          add_generation_prompt: true,
          bos_token: tokens.bosString ?? "",
          eos_token: tokens.eosString ?? "",
        },
        // The template is the repository's: its output is bounded by what the context could take.
        { limits: { maxOutputLength: maxChars + 1 } },
      );
    } catch (error) {
      // A template that refuses the messages (raise_exception: roles must alternate...), fails on them, or
      // runs past the sandbox's limits: the caller learns which, from the template's own words.
      if (error instanceof TemplateError) {
        // Its output bounded by the context: most often the messages themselves are too long.
        const hint = error.message.startsWith("output exceeds")
          ? " (the prompt would not fit this provider's context: shorten the messages)"
          : "";
        throw new InvalidInputError(
          `This model's chat template could not render these messages: ${error.message.slice(0, 300)}${hint}`,
        );
      }
      throw error;
    }
  }

  function touch(entry: Loaded): void {
    entry.lastUsed = Date.now();
    clearTimeout(entry.idleTimer);
    if (entry.active > 0) return;
    entry.idleTimer = setTimeout(() => {
      if (entry.active === 0 && loaded.has(entry.path)) void unload(entry.path, entry).catch(() => {});
    }, limits.idleMs);
    entry.idleTimer.unref();
  }

  /**
   * Generates an answer: waits for a slot (or throws LocalProviderBusyError at once when the queue is full),
   * loads the model if it is not, and yields the text as it decodes, then the counts.
   */
  async function* generate(
    name: string,
    prompt: LocalPrompt,
    sampling: LocalSampling,
    signal?: AbortSignal,
  ): AsyncGenerator<LocalPiece> {
    // The answer's time limit runs from here: the wait for a slot counts, as the caller waits through it.
    const timeLimit = AbortSignal.timeout(limits.answerMs);
    const overTime = () => timeLimit.aborted && !signal?.aborted;
    const release = await admission
      .enter(signal ? AbortSignal.any([signal, timeLimit]) : timeLimit)
      .catch((error: unknown) => {
        throw overTime() ? new LocalAnswerTimeoutError(limits.answerMs) : error;
      });
    let entry: Loaded | undefined;
    try {
      entry = await load(name);
      // A load cannot be interrupted: checked once it is done.
      if (overTime()) throw new LocalAnswerTimeoutError(limits.answerMs);
      entry.active++;
      clearTimeout(entry.idleTimer);
      const maxChars = entry.context.contextSize * MAX_PROMPT_CHARS_PER_TOKEN;
      const text = promptText(entry, prompt, maxChars);
      if (text.length > maxChars) {
        throw new InvalidInputError(
          `The prompt is ${text.length} characters; this provider's context holds ${entry.context.contextSize} tokens (at most ${maxChars} characters are read): shorten it.`,
        );
      }
      const input = entry.model.tokenize(text, true);
      // The model's tokenizer begins every sequence with BOS when its GGUF says so (add_bos_token: Llama,
      // Mistral...), as llama.cpp's server and transformers do; a chat template usually writes it already.
      const bos = entry.model.tokens.bos;
      if (entry.model.tokens.shouldPrependBosToken && bos !== null && input[0] !== bos) input.unshift(bos);
      const room = entry.context.contextSize - input.length;
      if (room < 1) {
        throw new InvalidInputError(
          `The prompt is ${input.length} tokens; this provider's context holds ${entry.context.contextSize}: shorten it.`,
        );
      }
      const maxTokens = Math.min(sampling.maxTokens, room);
      const output: Token[] = [];
      // node-llama-cpp is imported once loaded (runtime()): here it already is.
      const tokenBias =
        sampling.logitBias &&
        logitBias((await import("node-llama-cpp")).TokenBias, entry.model, sampling.logitBias);
      const frequencyPenalty = sampling.frequencyPenalty ?? 0;
      const presencePenalty = sampling.presencePenalty ?? 0;
      const sequence = entry.context.getSequence();
      const stops = createStopScan(sampling.stop ?? []);
      let sent = 0;
      let finishReason: "stop" | "length" = "length";
      let stoppedAt = -1;
      try {
        for await (const token of sequence.evaluate(input, {
          temperature: sampling.temperature,
          topP: sampling.topP,
          // As an unsigned 32-bit number, which llama.cpp's sampler takes.
          seed: sampling.seed === undefined ? undefined : samplerSeed(sampling.seed),
          tokenBias,
          // The answer's own tokens only, as OpenAI counts them (not the prompt's); no multiplicative
          // repeat penalty (1), which OpenAI does not have.
          repeatPenalty:
            frequencyPenalty === 0 && presencePenalty === 0
              ? undefined
              : {
                  punishTokens: () => output,
                  maxPunishTokens: maxTokens,
                  penalty: 1,
                  frequencyPenalty,
                  presencePenalty,
                },
        })) {
          if (signal?.aborted) break;
          if (overTime()) throw new LocalAnswerTimeoutError(limits.answerMs);
          if (entry.model.isEogToken(token)) {
            finishReason = "stop";
            break;
          }
          output.push(token);
          const text = entry.model.detokenize(output);
          stoppedAt = stops.find(text, sent);
          if (stoppedAt >= 0) {
            finishReason = "stop";
            break;
          }
          // A character split across tokens is held back until its last byte arrives, and an end that may
          // begin a stop sequence until the next tokens tell.
          const ready = text.length - stops.heldBack(text);
          if (!text.endsWith("\uFFFD") && ready > sent) {
            yield { text: text.slice(sent, ready) };
            sent = ready;
          }
          if (output.length >= maxTokens) break;
        }
        const text = entry.model.detokenize(output);
        const end = stoppedAt >= 0 ? stoppedAt : text.length;
        if (end > sent) yield { text: text.slice(sent, end) };
      } finally {
        await sequence.dispose();
      }
      yield {
        done: true,
        finishReason,
        usage: {
          prompt_tokens: input.length,
          completion_tokens: output.length,
          total_tokens: input.length + output.length,
        },
      };
    } finally {
      release();
      if (entry) {
        entry.active--;
        touch(entry);
      }
    }
  }

  return {
    generate,
    /** Counts text as the model's tokenizer does (loads the model when it is not). */
    async countTokens(name: string, text: string): Promise<number> {
      return (await load(name)).model.tokenize(text, true).length;
    },
    /** Slots in use, calls waiting, models in memory and how many loads there were. */
    stats: () => ({
      ...admission.stats(),
      loadedModels: [...new Set(loadedNames.values())],
      loads,
      loadFailures,
    }),
    /** The admission itself (tests hold slots with it to fill the queue deterministically). */
    admission,
    /** Unloads every model and frees llama.cpp. */
    async close(): Promise<void> {
      for (const [path, pending] of [...loaded]) {
        const entry = await pending.catch(() => undefined);
        if (entry) await unload(path, entry);
      }
      const engine = await llama?.catch(() => undefined);
      llama = undefined;
      if (!engine) return;
      // node-llama-cpp's dispose waits for every native handle it lent out, and a load that failed (a GGUF
      // llama.cpp cannot read) leaves one that only the garbage collector gives back: in
      // local-provider.e2e.test.ts the hub's close then waited forever. The process frees llama.cpp either way,
      // so the hub's shutdown waits for it a bounded time.
      let waited: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        engine.dispose().then(() => false),
        new Promise<boolean>((resolve) => {
          waited = setTimeout(() => resolve(true), DISPOSE_WAIT_MS);
        }),
      ]);
      clearTimeout(waited);
      if (timedOut) {
        deps.logger.log("warn", "llama.cpp was not freed in time; the process frees it on exit", {
          waitedMs: DISPOSE_WAIT_MS,
        });
      }
    },
  };
}

export type LocalEngine = ReturnType<typeof createLocalEngine>;

/**
 * A call's logit_bias as node-llama-cpp's TokenBias, its values added to the logits as they are. Token ids the
 * model does not have are refused, and so are its end-of-generation tokens, which TokenBias drops silently.
 */
function logitBias(
  Bias: typeof TokenBias,
  model: LlamaModel,
  biases: ReadonlyMap<number, number>,
): TokenBias {
  const vocabulary = model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length;
  // An id past the vocabulary must not reach llama.cpp's token lookups (isEogToken, the bias sampler).
  if (vocabulary === undefined) {
    throw new InvalidInputError(
      "This model's GGUF file does not list its tokens, so logit_bias cannot be checked: leave logit_bias out.",
    );
  }
  const bias = new Bias(model.tokenizer);
  for (const [token, value] of biases) {
    if (token >= vocabulary) {
      throw new InvalidInputError(
        `logit_bias names token ${token}, which this model does not have (its token ids are 0 to ${vocabulary - 1}): use ids of the model's own tokenizer.`,
      );
    }
    if (model.isEogToken(token as Token)) {
      throw new InvalidInputError(
        `logit_bias names token ${token}, which ends the answer: the local provider cannot bias it; leave it out, or limit the answer with max_tokens or stop.`,
      );
    }
    bias.set(token as Token, { logit: value });
  }
  return bias;
}

/** How long a file llama.cpp could not load is refused before it is tried again (a failure may be memory). */
const FAILED_LOAD_RETRY_MS = 5 * 60_000;
/** How long the hub's shutdown waits for node-llama-cpp to free llama.cpp (see close()). */
const DISPOSE_WAIT_MS = 2_000;

function unloadable(name: string): HubError {
  return new HubError(
    502,
    "local_model_unloadable",
    `llama.cpp could not load the GGUF file of ${name} (corrupt, or an architecture it does not run): ` +
      "ask the hub's administrator to check the file or disable the model.",
  );
}
