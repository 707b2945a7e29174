import type { Modality, PipelineType } from "../pipelines.js";

/** A model or dataset the hub suggests for a task. */
export interface TaskResource {
  /** owner/name on the hub */
  id: string;
  description: string;
}

/** What a task consumes or produces, in the hub's coarse vocabulary. */
export type TaskIoKind =
  | "text"
  | "chat"
  | "image"
  | "audio"
  | "video"
  | "table"
  | "time-series"
  | "labels"
  | "entities"
  | "embedding"
  | "scores"
  | "boxes"
  | "masks"
  | "keypoints"
  | "depth-map"
  | "3d-model"
  | "actions"
  | "graph"
  | "any";

/** One illustrative item of a task's demo: what goes in or comes out, as plain data. */
export type TaskDemoItem =
  | { type: "text"; label: string; content: string }
  | { type: "image" | "audio" | "video"; filename: string }
  | { type: "chart"; data: Array<{ label: string; score: number }> }
  | { type: "table"; data: string[][] };

/** One task as `GET /api/tasks` lists it (the public hub's field names, keyed by task id). */
export interface TaskData {
  id: PipelineType;
  label: string;
  modality: Modality;
  summary: string;
  /** Suggested models; the first one is the task's default model. */
  models: TaskResource[];
  datasets: TaskResource[];
  /** Models the hub's inline widget uses for this task. */
  widgetModels: string[];
  io: { inputs: TaskIoKind[]; outputs: TaskIoKind[] };
  demo: { inputs: TaskDemoItem[]; outputs: TaskDemoItem[] };
  /** True for tasks the hub knows but documents only thinly. */
  isPlaceholder: boolean;
  /** Why `models` is empty, when it is: the caller must then name a model. */
  noDefaultModelReason?: string;
}

/** What a task module writes; id, label and modality come from PIPELINE_DATA. */
export type TaskDefinition = Omit<
  TaskData,
  "id" | "label" | "modality" | "datasets" | "widgetModels" | "isPlaceholder"
> &
  Partial<Pick<TaskData, "datasets" | "widgetModels" | "isPlaceholder">>;
