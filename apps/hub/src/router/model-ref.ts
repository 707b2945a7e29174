import { isInferenceProvider } from "@modelhub/inference";
import { InvalidInputError } from "../errors.js";

/** How the router picks among a model's providers when the caller names none. */
export type SelectionPolicy = "default" | "fastest" | "cheapest" | "preferred";

/** The `model` of an OpenAI-style call: `owner/name`, `owner/name:provider` or `owner/name:fastest|cheapest|preferred`. */
export type ModelRef =
  | { model: string; provider: string; policy?: undefined }
  | { model: string; provider?: undefined; policy: SelectionPolicy };

const POLICIES: Readonly<Record<string, SelectionPolicy>> = {
  auto: "default",
  fastest: "fastest",
  cheapest: "cheapest",
  /** The caller's own stored provider order (their inference settings), own providers among them. */
  preferred: "preferred",
};

/**
 * `isOwnProvider`: whether a suffix names one of the hub's own providers (own-providers-registry.ts), which
 * an administrator adds at run time.
 */
export function parseModelRef(
  value: unknown,
  isOwnProvider: (name: string) => boolean = () => false,
): ModelRef {
  if (typeof value !== "string" || value.length === 0 || value.length > 300) {
    throw new InvalidInputError('"model" must be a model id: "owner/name", optionally ":provider".');
  }
  const colon = value.lastIndexOf(":");
  const model = colon === -1 ? value : value.slice(0, colon);
  const suffix = colon === -1 ? "" : value.slice(colon + 1);
  if (!/^[\w.-]+\/[\w.-]+$/.test(model)) {
    throw new InvalidInputError(
      `"model" must be "owner/name", optionally ":provider"; got ${JSON.stringify(value.slice(0, 100))}.`,
    );
  }
  if (suffix === "") return { model, policy: "default" };
  const policy = POLICIES[suffix];
  if (policy) return { model, policy };
  if (!isInferenceProvider(suffix) && !isOwnProvider(suffix)) {
    throw new InvalidInputError(
      `Unknown inference provider "${suffix.slice(0, 60)}" in "model" (or a policy: :fastest, :cheapest, :preferred).`,
    );
  }
  return { model, provider: suffix };
}
