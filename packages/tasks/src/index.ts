export * from "./model-data.js";
export * from "./pipelines.js";
