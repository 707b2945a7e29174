import { PageTitle } from "../../components/ui/page-title.js";
import { NewRepoForm } from "../../features/new-repo/index.js";

function NewRepoPage({ type, title }: { type: "model" | "dataset" | "space"; title: string }) {
  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-4">
      <PageTitle>{title}</PageTitle>
      <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
      <NewRepoForm type={type} />
    </section>
  );
}

export const NewModelPage = () => <NewRepoPage type="model" title="Create a new model" />;
export const NewDatasetPage = () => <NewRepoPage type="dataset" title="Create a new dataset" />;
export const NewSpacePage = () => <NewRepoPage type="space" title="Create a new space" />;
