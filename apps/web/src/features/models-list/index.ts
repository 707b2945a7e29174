export { ModelsList } from "./models-list.js";
