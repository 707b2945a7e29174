export { NewRepoForm } from "./new-repo-form.js";
