export { AuditLog } from "./audit-log.js";
