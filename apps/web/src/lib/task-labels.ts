import { PIPELINE_DATA } from "@modelhub/tasks";

// The filterable tasks, sorted by name, live with the filters (models-filters.tsx): sorting them here, at
// import, built a collator for every page that shows a task's label (tens of ms before the model page's
// first paint with the CPU slowed 4x).
export function taskLabel(task: string | undefined): string | undefined {
  if (!task) return undefined;
  return (PIPELINE_DATA as Record<string, { name: string }>)[task]?.name ?? task;
}
