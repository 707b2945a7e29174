export { runsHere, SpaceApp } from "./space-app.js";
