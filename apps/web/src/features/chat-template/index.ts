export { ChatTemplateView } from "./chat-template-view.js";
