export { ModelCard, RepoCard } from "./model-card.js";
export { ModelHeader } from "./model-header.js";
export { ModelNav } from "./model-nav.js";
export { RepoSidebar } from "./repo-sidebar.js";
