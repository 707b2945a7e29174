export { OwnerRepos } from "./owner-repos.js";
export { RepoRow } from "./repo-row.js";
export { ReposList } from "./repos-list.js";
