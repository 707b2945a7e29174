export { SpaceApp } from "./space-app.js";
