export { LocalApps } from "./local-apps.js";
