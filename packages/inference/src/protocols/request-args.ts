import { isObject } from "../validate.js";

/** The caller's `parameters` object (empty when absent or not an object). */
export const parametersOf = (args: Record<string, unknown>): Record<string, unknown> =>
  isObject(args.parameters) ? args.parameters : {};

/**
 * The caller's args without `inputs`, with `parameters` spread at the top level, where OpenAI-style APIs
 * read them: the body before the protocol names the input and the model its own way.
 */
export function flatArgs(args: Record<string, unknown>): Record<string, unknown> {
  const { inputs: _inputs, parameters: _parameters, ...rest } = args;
  return { ...rest, ...parametersOf(args) };
}
