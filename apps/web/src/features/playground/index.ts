export { Playground } from "./playground.js";
