/**
 * Test support for suites outside this package (the hub's walk over its catalogue's mappings): one sample
 * input per task and the function that runs each task. Source only (`@modelhub/inference/testing` resolves
 * under the `source` condition, as tests run); not part of the published build.
 */
export { TASK_FUNCTIONS, type TaskFunction } from "./task-functions.js";
export { pipelineOf, TASK_SAMPLES } from "./task-samples.js";
