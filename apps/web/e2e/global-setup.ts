import { buildWebIfStale } from "./build-web.js";

/** The end-to-end tests run against the production build the hub serves; build it once if it is stale. */
export default function setup(): void {
  buildWebIfStale();
}
