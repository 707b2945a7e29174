import type { BuiltRequest } from "@modelhub/inference";
import { headerValueExpr, headerWord, type TokenSource, tokenExpr } from "./access-token.js";
import { type CodeValue, codeValue } from "./literals/code-value.js";

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
  const asCode = (entries: HeaderEntry[]) =>
    codeValue(
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
    provider: codeValue(request.provider),
    modelId: codeValue(input.modelId),
    providerModelId: codeValue(request.providerModelId),
    accessToken: codeValue(tokenExpr(token)),
    baseUrl: codeValue(request.url.replace(/\/chat\/completions$/, "")),
    fullUrl: codeValue(request.url),
    authorizationHeader: codeValue(auth ? headerValueExpr(auth[1], sentinel, token) : ""),
    headers: asCode([...base, ...bill]),
    headersJson: asCode(json),
    headersFile: asCode(file),
    headerWordsJson: asWords(json),
    headerWordsFile: asWords(file),
    inputs: codeValue(args),
    providerInputs: codeValue(input.providerBody),
    mainInput: codeValue(mainInput),
    parameters: isObject(args.parameters) ? codeValue(args.parameters) : undefined,
    inputFields: isObject(mainInput)
      ? Object.fromEntries(Object.entries(mainInput).map(([key, value]) => [key, codeValue(value)]))
      : {},
    chatArgs: codeValue(input.chatArgs),
    file: codeValue(input.file?.fileName ?? ""),
    fileArg: codeValue(`@${input.file?.fileName ?? ""}`),
    contentType: codeValue(input.file?.contentType ?? ""),
    outputFile: codeValue(input.outputFile ?? ""),
    outputVar: input.outputFile?.endsWith(".png") ? "image_bytes" : "audio_bytes",
    methodName: undefined,
    billTo: input.billTo ? codeValue(input.billTo) : undefined,
    customHub: input.customHub,
    hubUrl: codeValue(input.hubUrl),
    routerUrl: codeValue(routerUrl),
    routerTemplate: codeValue(routerTemplate),
  };
}
