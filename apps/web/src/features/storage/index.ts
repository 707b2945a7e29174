export { StorageAdmin } from "./storage-admin.js";
export { StorageUsage } from "./storage-usage.js";
