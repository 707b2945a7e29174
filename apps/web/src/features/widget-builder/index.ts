export { WidgetBuilder } from "./widget-builder.js";
