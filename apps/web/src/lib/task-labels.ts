import { PIPELINE_DATA, PIPELINE_TYPES, type PipelineType } from "@modelhub/tasks";

export function taskLabel(task: string | undefined): string | undefined {
  if (!task) return undefined;
  return (PIPELINE_DATA as Record<string, { name: string }>)[task]?.name ?? task;
}

/** The tasks a reader can filter models by (hidden ones are internal). */
export const FILTERABLE_TASKS: PipelineType[] = PIPELINE_TYPES.filter(
  (task) => !(PIPELINE_DATA[task] as { hideInModels?: boolean }).hideInModels,
).sort((a, b) => PIPELINE_DATA[a].name.localeCompare(PIPELINE_DATA[b].name));
