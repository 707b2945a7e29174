import { expect } from "vitest";
import { TemplateError, TemplateRaisedError } from "../index.js";

/** What `run` throws, or undefined when it returns. */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/**
 * A render that Jinja2 refused with `error` throws a TemplateError here too; the template's own
 * `raise_exception` (Jinja2's TemplateError) with exactly its message.
 */
export function expectJinja2Error(thrown: unknown, error: { type: string; message: string }): void {
  expect(thrown, `Jinja2 raised ${error.type}: ${error.message}`).toBeInstanceOf(TemplateError);
  if (error.type === "TemplateError") {
    expect(thrown).toBeInstanceOf(TemplateRaisedError);
    expect((thrown as Error).message).toBe(error.message);
  }
}
