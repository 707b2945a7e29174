export { DatasetViewer } from "./dataset-viewer.js";
