export { GatedAccessPanel } from "./gated-access-panel.js";
