import type { BuiltRequest } from "@modelhub/inference/requests";
import { headerValueExpr, headerWord, type TokenSource, tokenExpr } from "./access-token.js";
import type { FalQueueVariables } from "./fal-queue.js";
import { type CodeValue, LazyCodeValue } from "./literals/code-value.js";
import type { CodeExpr } from "./literals/expr.js";
import type { WavespeedJobVariables } from "./wavespeed-job.js";

/** A variable's value; its texts are made when a template reads them. */
const code = (value: unknown): CodeValue => new LazyCodeValue(value);

/** Everything a template may print (spec §3 template variables). */
// A type alias, not an interface: compiled templates take it as a plain record of variables.
export type TemplateContext = {
  provider: CodeValue;
  modelId: CodeValue;
  providerModelId: CodeValue;
  accessToken: CodeValue;
  baseUrl: CodeValue;
  fullUrl: CodeValue;
  /** The value of the header that carries the token (Authorization, or the provider's own). */
  authorizationHeader: CodeValue;
  /** Request headers without a content type (Python requests sets it itself). */
  headers: CodeValue;
  /** Headers for a JSON body, and for a file body. */
  headersJson: CodeValue;
  headersFile: CodeValue;
  /** The same as shell words for `curl -H`. */
  headerWordsJson: string[];
  headerWordsFile: string[];
  /** The task arguments as the caller gives them (`{inputs, parameters}` or the chat arguments). */
  inputs: CodeValue;
  /** The body the provider receives. */
  providerInputs: CodeValue;
  mainInput: CodeValue;
  parameters: CodeValue | undefined;
  /** Hub clients only: body fields the provider reads the input from that the client does not write. */
  extraBody: CodeValue | undefined;
  inputFields: Record<string, CodeValue>;
  chatArgs: CodeValue;
  file: CodeValue;
  fileArg: CodeValue;
  contentType: CodeValue;
  outputFile: CodeValue;
  outputVar: string;
  methodName: string | undefined;
  billTo: CodeValue | undefined;
  customHub: boolean;
  /** The token is read from the environment (Python snippets then import os). */
  usesEnv: boolean;
  hubUrl: CodeValue;
  routerUrl: CodeValue;
  routerTemplate: CodeValue;
  importBase64?: boolean;
  importJson?: boolean;
  importTime?: boolean;
  /** huggingface.js: the node:fs/promises functions the snippet uses. */
  fsImports?: string;
} & Partial<FalQueueVariables> &
  Partial<WavespeedJobVariables>;

export interface ContextInput {
  modelId: string;
  request: BuiltRequest;
  sentinel: string;
  token: TokenSource;
  /** The task arguments given to the request builder. */
  args: Record<string, unknown>;
  /** The body the provider receives (parsed when the builder gave a string). */
  providerBody: unknown;
  /** See hub-client-body.ts. */
  extraBody?: Record<string, unknown>;
  chatArgs: Record<string, unknown>;
  file: { fileName: string; contentType: string } | undefined;
  outputFile: string | undefined;
  billTo: string | undefined;
  hubUrl: string;
  routerUrl: string;
  /** The `auto` provider: the hub clients get `provider="auto"`. */
  autoProvider?: boolean;
  customHub: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The request's headers a snippet shows as they are: its content type and bill-to are written per form. */
function isPassedOnHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower !== "content-type" && lower !== "x-hf-bill-to";
}

/** Headers as a value for templates (the token as code) and as `curl -H` words, built once per call. */
class HeaderSet {
  readonly values: Record<string, unknown> = {};
  readonly words: string[] = [];
  /** The first header value that carries the token. */
  auth: CodeExpr | undefined;

  constructor(
    private readonly sentinel: string,
    private readonly token: TokenSource,
  ) {}

  add(name: string, value: string): void {
    if (value.includes(this.sentinel)) {
      const expr = headerValueExpr(value, this.sentinel, this.token);
      this.auth ??= expr;
      this.values[name] = expr;
    } else {
      this.values[name] = value;
    }
    this.words.push(headerWord(name, value, this.sentinel, this.token));
  }
}

/** `shown` followed by a content type. */
function withContentType(shown: HeaderSet, contentType: string, sentinel: string, token: TokenSource) {
  const typed = new HeaderSet(sentinel, token);
  typed.add("Content-Type", contentType);
  return { values: { ...shown.values, ...typed.values }, words: [...shown.words, ...typed.words] };
}

export function buildTemplateContext(input: ContextInput): TemplateContext {
  const { request, sentinel, token } = input;
  const shown = new HeaderSet(sentinel, token);
  for (const [name, value] of Object.entries(request.headers)) {
    if (isPassedOnHeader(name)) shown.add(name, value);
  }
  const auth = shown.auth;
  if (input.billTo) shown.add("X-HF-Bill-To", input.billTo);
  const json = withContentType(shown, "application/json", sentinel, token);
  const file = withContentType(shown, input.file?.contentType ?? "application/octet-stream", sentinel, token);
  const args = input.args;
  const mainInput = args.inputs;
  const routerUrl = input.routerUrl.replace(/\/+$/, "");
  // huggingface_hub fills `{provider}` with str.format, so braces in the URL itself are doubled.
  const routerTemplate = `${routerUrl.replace(/[{}]/g, (brace) => brace + brace)}/{provider}`;

  return {
    provider: code(input.autoProvider ? "auto" : request.provider),
    modelId: code(input.modelId),
    providerModelId: code(request.providerModelId),
    accessToken: code(tokenExpr(token)),
    baseUrl: code(request.url.replace(/\/chat\/completions$/, "")),
    fullUrl: code(request.url),
    authorizationHeader: code(auth ?? ""),
    headers: code(shown.values),
    headersJson: code(json.values),
    headersFile: code(file.values),
    headerWordsJson: json.words,
    headerWordsFile: file.words,
    inputs: code(args),
    providerInputs: code(input.providerBody),
    mainInput: code(mainInput),
    parameters: isObject(args.parameters) ? code(args.parameters) : undefined,
    extraBody: input.extraBody ? code(input.extraBody) : undefined,
    inputFields: isObject(mainInput)
      ? Object.fromEntries(Object.entries(mainInput).map(([key, value]) => [key, code(value)]))
      : {},
    chatArgs: code(input.chatArgs),
    file: code(input.file?.fileName ?? ""),
    fileArg: code(`@${input.file?.fileName ?? ""}`),
    contentType: code(input.file?.contentType ?? ""),
    outputFile: code(input.outputFile ?? ""),
    outputVar: input.outputFile?.endsWith(".png") ? "image_bytes" : "audio_bytes",
    methodName: undefined,
    billTo: input.billTo ? code(input.billTo) : undefined,
    customHub: input.customHub,
    usesEnv: token.kind === "env",
    hubUrl: code(input.hubUrl),
    routerUrl: code(routerUrl),
    routerTemplate: code(routerTemplate),
  };
}
