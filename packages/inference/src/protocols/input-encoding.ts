import { blobToBase64, blobToDataUrl, isBinary, isBlob } from "../encoding.js";
import type { InputEncoding, TaskSpec } from "../providers/types.js";
import type { JsonObject } from "../types.js";

async function encode(value: unknown, encoding: InputEncoding): Promise<unknown> {
  if (!isBinary(value)) return value;
  const blob = isBlob(value) ? value : new Blob([value as BlobPart]);
  return encoding === "data-url" ? blobToDataUrl(blob) : blobToBase64(blob);
}

/**
 * Files a provider wants inside JSON become base64 or data URLs (at `inputs` or `inputs.image`);
 * with "raw" encoding they stay as they are and are sent as the body.
 */
export async function encodeInputs(
  args: JsonObject,
  encoding: InputEncoding | undefined,
): Promise<JsonObject> {
  if (!encoding || encoding === "raw") return args;
  const { inputs } = args;
  if (isBinary(inputs)) return { ...args, inputs: await encode(inputs, encoding) };
  if (inputs && typeof inputs === "object" && isBinary((inputs as JsonObject).image)) {
    const image = await encode((inputs as JsonObject).image, encoding);
    return { ...args, inputs: { ...(inputs as JsonObject), image } };
  }
  return args;
}

/**
 * A spec's input encoding: how its files travel (`inputEncoding`, which the request builder reads for a raw
 * body) and the encoder prepare runs before building (`encodeInputs`). The encoder is the protocol's, not
 * prepare's import, so that a bundle of tasks without files (chat) does not carry it.
 */
export function withInputEncoding(
  how: (args: JsonObject) => InputEncoding,
): Required<Pick<TaskSpec, "inputEncoding" | "encodeInputs">> {
  return { inputEncoding: how, encodeInputs: (args) => encodeInputs(args, how(args)) };
}
