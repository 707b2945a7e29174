/// <reference path="./jsfive.d.ts" />
// jsfive ships no types: the declarations travel with the scanner into every program that compiles it.
import { File as Hdf5File } from "jsfive";
import { readRange, TruncatedError } from "./read-range.js";
import type { ContentScanner, ScanFinding, ScanSource } from "./scan-report.js";
import { classifyGlobal } from "./scan-rules.js";
import { ZipArchive } from "./zip-source.js";

/**
 * Keras models run code when loaded through Lambda layers (marshalled Python bytecode, or a function named by
 * module) and custom objects (classes and functions Keras imports by module name). Both are named in the
 * model's config: `config.json` inside a Keras 3 `.keras` zip, or the JSON string attribute `model_config`
 * (and `training_config`) on the root group of a legacy Keras 2 `.h5`. The scanner walks every nested config:
 * a Lambda layer (or a serialized Python lambda) is dangerous; an object from a module outside Keras is
 * suspicious, and dangerous when the pickle rules deny that import (os.system...).
 */

/** The HDF5 head handed to the reader: the root group's attributes are written before any weights. */
export const H5_HEAD_BYTES = 16 * 1024 * 1024;
/** A config.json larger than this is not a model config (a zip bomb, or not a Keras file). */
export const MAX_KERAS_CONFIG_BYTES = 64 * 1024 * 1024;
const MAX_DEPTH = 500;
const HDF5_MAGIC = Buffer.from([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Modules whose objects are Keras' own (and its first-party libraries'). */
const KERAS_MODULES = ["keras", "tf_keras", "keras_hub", "keras_nlp", "keras_cv", "tensorflow.keras"];

class UnreadableKeras extends Error {}

export const kerasScanner: ContentScanner = {
  id: "keras",
  appliesTo(path, head) {
    const lower = path.toLowerCase();
    if (lower.endsWith(".keras")) return true;
    return (lower.endsWith(".h5") || lower.endsWith(".hdf5")) && head.subarray(0, 8).equals(HDF5_MAGIC);
  },
  async scan(source) {
    try {
      const lower = source.path.toLowerCase();
      const configs = lower.endsWith(".keras") ? await kerasArchiveConfigs(source) : await h5Configs(source);
      const findings: ScanFinding[] = [];
      for (const { text, location } of configs) inspectConfigText(text, location, findings);
      return { findings };
    } catch (error) {
      if (error instanceof UnreadableKeras || error instanceof TruncatedError) {
        return { findings: [], couldNotScan: `unreadable Keras file: ${error.message}` };
      }
      throw error;
    }
  },
};

interface ConfigText {
  text: string;
  location: string;
}

async function kerasArchiveConfigs(source: ScanSource): Promise<ConfigText[]> {
  let archive: ZipArchive;
  try {
    archive = await ZipArchive.open(source);
  } catch (error) {
    throw new UnreadableKeras(`not a readable zip archive (${(error as Error).message})`);
  }
  try {
    for await (const member of archive.members()) {
      if (member.name !== "config.json") continue;
      if (member.uncompressedSize > MAX_KERAS_CONFIG_BYTES) {
        throw new UnreadableKeras(
          `config.json declares ${member.uncompressedSize} bytes, over the ${MAX_KERAS_CONFIG_BYTES}-byte limit`,
        );
      }
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of await member.open()) {
        total += (chunk as Buffer).length;
        if (total > MAX_KERAS_CONFIG_BYTES)
          throw new UnreadableKeras(`config.json inflates past ${MAX_KERAS_CONFIG_BYTES} bytes`);
        chunks.push(chunk as Buffer);
      }
      return [{ text: Buffer.concat(chunks).toString("utf8"), location: "config.json" }];
    }
  } catch (error) {
    if (error instanceof UnreadableKeras) throw error;
    throw new UnreadableKeras(`reading the zip archive failed (${(error as Error).message})`);
  } finally {
    archive.close();
  }
  throw new UnreadableKeras("the .keras archive has no config.json");
}

async function h5Configs(source: ScanSource): Promise<ConfigText[]> {
  const head = await readRange(source, 0, Math.min(source.size, H5_HEAD_BYTES));
  if (!head.subarray(0, 8).equals(HDF5_MAGIC))
    throw new UnreadableKeras("not an HDF5 file (no HDF5 signature at byte 0)");
  let attributes: Record<string, unknown>;
  try {
    const buffer = head.buffer.slice(head.byteOffset, head.byteOffset + head.byteLength) as ArrayBuffer;
    attributes = new Hdf5File(buffer, source.path).attrs;
  } catch (error) {
    const where = source.size > head.length ? ` (only the first ${head.length} bytes are read)` : "";
    throw new UnreadableKeras(
      `the HDF5 root group's attributes cannot be read${where}: ${(error as Error).message}`,
    );
  }
  const configs: ConfigText[] = [];
  for (const name of ["model_config", "training_config"]) {
    const value = attributes[name];
    if (value === undefined) continue;
    const text =
      typeof value === "string"
        ? value
        : value instanceof Uint8Array
          ? Buffer.from(value).toString("utf8")
          : undefined;
    if (text === undefined) throw new UnreadableKeras(`the root attribute ${name} is not a string`);
    configs.push({ text, location: name });
  }
  // Without a model config the file holds weights only (model.save_weights): nothing in it names code.
  return configs;
}

function inspectConfigText(text: string, location: string, findings: ScanFinding[]): void {
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw new UnreadableKeras(`${location} is not valid JSON (${(error as Error).message})`);
  }
  walk(config, location, false, 0, findings);
}

function walk(
  node: unknown,
  path: string,
  insideLambda: boolean,
  depth: number,
  findings: ScanFinding[],
): void {
  if (depth > MAX_DEPTH)
    throw new UnreadableKeras(`the config nests deeper than ${MAX_DEPTH} levels at ${path}`);
  if (Array.isArray(node)) {
    for (const [index, child] of node.entries())
      walk(child, `${path}[${index}]`, insideLambda, depth + 1, findings);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const object = node as Record<string, unknown>;
  const className = typeof object.class_name === "string" ? object.class_name : undefined;
  const inner = object.config as Record<string, unknown> | undefined;
  const layerName = typeof inner?.name === "string" ? inner.name : undefined;
  let lambda = insideLambda;
  if (className === "Lambda") {
    const bytecode =
      Array.isArray(inner?.function) || isLambdaObject(inner?.function) || inner?.function_type === "lambda";
    findings.push({
      scanner: "keras",
      safety: "dangerous",
      message: `Keras Lambda layer '${layerName ?? "?"}' runs Python code when the model is loaded${bytecode ? " (marshalled Python bytecode)" : ""}`,
      location: path,
    });
    lambda = true;
  } else if (className === "__lambda__" && !insideLambda) {
    findings.push({
      scanner: "keras",
      safety: "dangerous",
      message: "a serialized Python lambda (marshalled bytecode) runs when the model is loaded",
      location: path,
    });
    lambda = true;
  } else if (className !== undefined) {
    const custom = customObject(object, className);
    if (custom) findings.push({ scanner: "keras", ...custom, location: path });
  }
  for (const [key, child] of Object.entries(object)) {
    if (typeof child === "object" && child !== null)
      walk(child, `${path}.${key}`, lambda, depth + 1, findings);
  }
}

function isLambdaObject(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { class_name?: unknown }).class_name === "__lambda__"
  );
}

/** A class or function Keras imports from outside itself: Keras 3's `module` / `registered_name`, Keras 2's "package>Name". */
function customObject(
  object: Record<string, unknown>,
  className: string,
): Pick<ScanFinding, "safety" | "message"> | undefined {
  const module = typeof object.module === "string" ? object.module : undefined;
  const registered = typeof object.registered_name === "string" ? object.registered_name : undefined;
  // Keras 3 names a plain function as class "function" with its name as the config.
  const name = className === "function" && typeof object.config === "string" ? object.config : className;
  const outsideKeras =
    module !== undefined &&
    !KERAS_MODULES.some((keras) => module === keras || module.startsWith(`${keras}.`));
  const registeredCustom =
    (registered !== undefined && registered !== "function" && registered !== className) ||
    className.includes(">");
  if (!outsideKeras && !registeredCustom) return undefined;
  const what = module !== undefined ? `${module}.${name}` : (registered ?? className);
  const denied = module !== undefined && classifyGlobal(module, name) === "dangerous";
  return {
    safety: denied ? "dangerous" : "suspicious",
    message: denied
      ? `Keras config imports ${what}, which runs commands or code when the model is loaded`
      : `Keras custom object ${what} is imported and run when the model is loaded`,
  };
}
