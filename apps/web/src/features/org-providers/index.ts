export { OrgProviders } from "./org-providers.js";
