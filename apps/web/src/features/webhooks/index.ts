export { WebhooksSettings } from "./webhooks-settings.js";
