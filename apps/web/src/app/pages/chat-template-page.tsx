import { PageTitle } from "../../components/ui/page-title.js";
import { ChatTemplateView } from "../../features/chat-template/index.js";
import { useRouteModel } from "../../lib/route-model.js";

export function ChatTemplatePage() {
  const model = useRouteModel();
  return (
    <>
      <PageTitle>{`Chat template of ${model.id}`}</PageTitle>
      <ChatTemplateView model={model} />
    </>
  );
}
