import { describe, expect, it } from "vitest";
import { NoDefaultModelError, TasksError, UnknownTaskError } from "../errors.js";
import { PIPELINE_DATA, PIPELINE_TYPES } from "../pipelines.js";
import { getDefaultModel, TASKS_DATA } from "./index.js";

const MODEL_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

describe("TASKS_DATA", () => {
  it("has one definition per pipeline type, keyed by its id, in PIPELINE_TYPES order", () => {
    expect(PIPELINE_TYPES.length).toBeGreaterThanOrEqual(55);
    expect(Object.keys(TASKS_DATA)).toEqual(PIPELINE_TYPES);
    for (const task of PIPELINE_TYPES) {
      const data = TASKS_DATA[task];
      expect(data.id).toBe(task);
      expect(data.label).toBe(PIPELINE_DATA[task].name);
      expect(data.modality).toBe(PIPELINE_DATA[task].modality);
      expect(data.summary.length, task).toBeGreaterThan(20);
    }
  });

  it("suggests well-formed, unique model ids, or says why a task has none", () => {
    for (const task of PIPELINE_TYPES) {
      const { models, noDefaultModelReason, widgetModels } = TASKS_DATA[task];
      for (const model of models) {
        expect(model.id, task).toMatch(MODEL_ID);
        expect(model.description.length, model.id).toBeGreaterThan(5);
      }
      expect(new Set(models.map((m) => m.id)).size, task).toBe(models.length);
      if (models.length === 0) expect(noDefaultModelReason, task).toBeTruthy();
      else expect(noDefaultModelReason, task).toBeUndefined();
      for (const id of widgetModels) expect(models.map((m) => m.id)).toContain(id);
    }
  });

  it("survives a JSON round trip unchanged (it is served as is by GET /api/tasks)", () => {
    expect(JSON.parse(JSON.stringify(TASKS_DATA))).toEqual(TASKS_DATA);
  });

  it("gives every visible task a default model and a demo", () => {
    const visible = PIPELINE_TYPES.filter((task) => !("hideInModels" in PIPELINE_DATA[task]));
    for (const task of visible) {
      if (task === "other") continue;
      expect(TASKS_DATA[task].models.length, task).toBeGreaterThan(0);
    }
  });
});

describe("getDefaultModel", () => {
  it("returns the first suggested model", () => {
    expect(getDefaultModel("text-classification")).toBe(
      "distilbert/distilbert-base-uncased-finetuned-sst-2-english",
    );
    expect(getDefaultModel("text-to-image")).toBe(TASKS_DATA["text-to-image"].models[0]?.id);
    for (const task of PIPELINE_TYPES) {
      if (TASKS_DATA[task].models.length > 0)
        expect(getDefaultModel(task)).toBe(TASKS_DATA[task].models[0]?.id);
    }
  });

  it("rejects an unknown task with a typed, clear error", () => {
    expect(() => getDefaultModel("text-to-smell")).toThrow(UnknownTaskError);
    expect(() => getDefaultModel("text-to-smell")).toThrow('Unknown task "text-to-smell"');
    expect(() => getDefaultModel("constructor")).toThrow(UnknownTaskError);
    expect(() => getDefaultModel("")).toThrow(UnknownTaskError);
  });

  it("names the task and the reason when a known task has no default model", () => {
    let caught: unknown;
    try {
      getDefaultModel("other");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(NoDefaultModelError);
    expect(TasksError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toMatch(/^No default model defined for task other/);
  });
});
