export { siteQuery } from "./admin-api.js";
export { MirrorAdmin } from "./mirror-admin.js";
export { OrgsAdmin } from "./orgs-admin.js";
export { OwnProvidersAdmin } from "./own-providers-admin.js";
export { SiteSettingsForm } from "./site-settings-form.js";
export { UsageAdmin } from "./usage-admin.js";
export { UsersAdmin } from "./users-admin.js";
