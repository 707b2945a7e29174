import { ChatTemplateView } from "../../features/chat-template/index.js";
import { useRouteModel } from "../../lib/route-model.js";

export function ChatTemplatePage() {
  return <ChatTemplateView model={useRouteModel()} />;
}
