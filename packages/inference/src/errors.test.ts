import { describe, expect, it } from "vitest";
import { InferenceError, InputError, ProviderApiError, redactRequest, TimeoutError } from "./errors.js";

describe("errors", () => {
  it("isInstance follows the class chain", () => {
    const error = new TimeoutError("slow");
    expect(InferenceError.isInstance(error)).toBe(true);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect(InputError.isInstance(error)).toBe(false);
    expect(error.name).toBe("TimeoutError");
  });

  it("isInstance recognises errors from another copy of the package (same marker, other class)", () => {
    // What a second install produces: the registered symbol and the names, but not our prototype.
    const foreign = Object.assign(new Error("boom"), {
      [Symbol.for("@modelhub/inference.error")]: true,
      errorNames: ["ProviderApiError", "InferenceError"],
    });
    expect(foreign instanceof ProviderApiError).toBe(false);
    expect(ProviderApiError.isInstance(foreign)).toBe(true);
    expect(InferenceError.isInstance(new Error("plain"))).toBe(false);
  });

  it("redacts credentials but keeps the auth scheme", () => {
    const redacted = redactRequest("https://x", "POST", {
      Authorization: "Bearer hf_secret",
      "X-Key": "bfl-secret",
      "Content-Type": "application/json",
    });
    expect(redacted.headers).toEqual({
      Authorization: "Bearer [redacted]",
      "X-Key": "[redacted]",
      "Content-Type": "application/json",
    });
  });
});
