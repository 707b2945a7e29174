import type { BuiltRequest } from "@modelhub/inference";
import { headerValueExpr, headerWord, type TokenSource, tokenExpr } from "./access-token.js";
import { type CodeValue, codeValue as formatAll } from "./literals/code-value.js";
import { TEMPLATES } from "./templates.generated.js";

/**
 * Which texts of which variable any template reads (`modelId.py`, `inputFields.question.py`): templates
 * only read fields by name, so a value needs no other text. Scanned once, when the module loads.
 */
const FIELDS_READ = (() => {
  const read = new Map<string, Set<string>>();
  const pattern = /\b(inputFields\.)?([A-Za-z_]\w*)\.(py|ts|json|sh|curl|pyKwargs|tsEntries)\b/g;
  for (const source of Object.values(TEMPLATES)) {
    for (const [, inInputFields, name, field] of source.matchAll(pattern)) {
      const key = inInputFields ? "inputFields" : name!;
      const fields = read.get(key) ?? new Set<string>();
      fields.add(field!);
      read.set(key, fields);
    }
  }
  return read;
})();
const NOTHING: ReadonlySet<string> = new Set();

/** A variable's value with the texts some template reads. */
const codeFor = (variable: string, value: unknown) => formatAll(value, FIELDS_READ.get(variable) ?? NOTHING);

/** Everything a template may print (spec §3 template variables). */
export interface TemplateContext {
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
  /** huggingface.js: the node:fs/promises functions the snippet uses. */
  fsImports?: string;
}

export interface ContextInput {
  modelId: string;
  request: BuiltRequest;
  sentinel: string;
  token: TokenSource;
  /** The task arguments given to the request builder. */
  args: Record<string, unknown>;
  /** The body the provider receives (parsed when the builder gave a string). */
  providerBody: unknown;
  chatArgs: Record<string, unknown>;
  file: { fileName: string; contentType: string } | undefined;
  outputFile: string | undefined;
  billTo: string | undefined;
  hubUrl: string;
  routerUrl: string;
  customHub: boolean;
}

type HeaderEntry = [name: string, value: string];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function buildTemplateContext(input: ContextInput): TemplateContext {
  const { request, sentinel, token } = input;
  const isContentType = (name: string) => name.toLowerCase() === "content-type";
  const isBillTo = (name: string) => name.toLowerCase() === "x-hf-bill-to";
  const base: HeaderEntry[] = Object.entries(request.headers).filter(
    ([name]) => !isContentType(name) && !isBillTo(name),
  );
  const bill: HeaderEntry[] = input.billTo ? [["X-HF-Bill-To", input.billTo]] : [];
  const json: HeaderEntry[] = [...base, ...bill, ["Content-Type", "application/json"]];
  const file: HeaderEntry[] = [
    ...base,
    ...bill,
    ["Content-Type", input.file?.contentType ?? "application/octet-stream"],
  ];
  const asCode = (variable: string, entries: HeaderEntry[]) =>
    codeFor(
      variable,
      Object.fromEntries(
        entries.map(([name, value]) => [
          name,
          value.includes(sentinel) ? headerValueExpr(value, sentinel, token) : value,
        ]),
      ),
    );
  const asWords = (entries: HeaderEntry[]) =>
    entries.map(([name, value]) => headerWord(name, value, sentinel, token));
  const auth = base.find(([, value]) => value.includes(sentinel));
  const args = input.args;
  const mainInput = args.inputs;
  const routerUrl = input.routerUrl.replace(/\/+$/, "");
  // huggingface_hub fills `{provider}` with str.format, so braces in the URL itself are doubled.
  const routerTemplate = `${routerUrl.replace(/[{}]/g, (brace) => brace + brace)}/{provider}`;

  return {
    provider: codeFor("provider", request.provider),
    modelId: codeFor("modelId", input.modelId),
    providerModelId: codeFor("providerModelId", request.providerModelId),
    accessToken: codeFor("accessToken", tokenExpr(token)),
    baseUrl: codeFor("baseUrl", request.url.replace(/\/chat\/completions$/, "")),
    fullUrl: codeFor("fullUrl", request.url),
    authorizationHeader: codeFor(
      "authorizationHeader",
      auth ? headerValueExpr(auth[1], sentinel, token) : "",
    ),
    headers: asCode("headers", [...base, ...bill]),
    headersJson: asCode("headersJson", json),
    headersFile: asCode("headersFile", file),
    headerWordsJson: asWords(json),
    headerWordsFile: asWords(file),
    inputs: codeFor("inputs", args),
    providerInputs: codeFor("providerInputs", input.providerBody),
    mainInput: codeFor("mainInput", mainInput),
    parameters: isObject(args.parameters) ? codeFor("parameters", args.parameters) : undefined,
    inputFields: isObject(mainInput)
      ? Object.fromEntries(
          Object.entries(mainInput).map(([key, value]) => [key, codeFor("inputFields", value)]),
        )
      : {},
    chatArgs: codeFor("chatArgs", input.chatArgs),
    file: codeFor("file", input.file?.fileName ?? ""),
    fileArg: codeFor("fileArg", `@${input.file?.fileName ?? ""}`),
    contentType: codeFor("contentType", input.file?.contentType ?? ""),
    outputFile: codeFor("outputFile", input.outputFile ?? ""),
    outputVar: input.outputFile?.endsWith(".png") ? "image_bytes" : "audio_bytes",
    methodName: undefined,
    billTo: input.billTo ? codeFor("billTo", input.billTo) : undefined,
    customHub: input.customHub,
    usesEnv: token.kind === "env",
    hubUrl: codeFor("hubUrl", input.hubUrl),
    routerUrl: codeFor("routerUrl", routerUrl),
    routerTemplate: codeFor("routerTemplate", routerTemplate),
  };
}
