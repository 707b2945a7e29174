import { NoDefaultModelError, UnknownTaskError } from "../errors.js";
import { isPipelineType, PIPELINE_DATA, PIPELINE_TYPES, type PipelineType } from "../pipelines.js";
import { AUDIO_TASKS } from "./audio.js";
import { CV_TASKS } from "./cv.js";
import { MULTIMODAL_TASKS } from "./multimodal.js";
import { NLP_TASKS } from "./nlp.js";
import { STRUCTURED_TASKS } from "./structured.js";
import type { TaskData, TaskDefinition } from "./types.js";

export type { TaskData, TaskDemoItem, TaskIoKind, TaskResource } from "./types.js";

/**
 * Every definition, checked by the compiler to cover each pipeline type exactly once: adding a pipeline type
 * without a definition fails type-checking here.
 */
const DEFINITIONS: Record<PipelineType, TaskDefinition> = {
  ...NLP_TASKS,
  ...AUDIO_TASKS,
  ...CV_TASKS,
  ...MULTIMODAL_TASKS,
  ...STRUCTURED_TASKS,
};

function complete(task: PipelineType, definition: TaskDefinition): TaskData {
  const pipeline = PIPELINE_DATA[task];
  return {
    id: task,
    label: pipeline.name,
    modality: pipeline.modality,
    summary: definition.summary,
    models: definition.models,
    datasets: definition.datasets ?? [],
    widgetModels: definition.widgetModels ?? definition.models.slice(0, 1).map((model) => model.id),
    io: definition.io,
    demo: definition.demo,
    isPlaceholder: definition.isPlaceholder ?? false,
    ...(definition.noDefaultModelReason === undefined
      ? {}
      : { noDefaultModelReason: definition.noDefaultModelReason }),
  };
}

/** The data behind `GET /api/tasks`: every pipeline task, keyed by its id, in PIPELINE_TYPES order. */
export const TASKS_DATA: Readonly<Record<PipelineType, TaskData>> = Object.fromEntries(
  PIPELINE_TYPES.map((task) => [task, complete(task, DEFINITIONS[task])]),
) as Record<PipelineType, TaskData>;

/**
 * The model used when a caller names only a task: the first suggested model.
 * @throws UnknownTaskError when `task` is not a pipeline type; NoDefaultModelError when it has no models.
 */
export function getDefaultModel(task: string): string {
  if (!isPipelineType(task)) throw new UnknownTaskError(task);
  const data = TASKS_DATA[task];
  const first = data.models[0];
  if (first === undefined) {
    throw new NoDefaultModelError(task, data.noDefaultModelReason ?? "no suggested model");
  }
  return first.id;
}
