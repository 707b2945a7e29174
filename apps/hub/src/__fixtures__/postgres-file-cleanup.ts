import { afterAll } from "vitest";
import { dropTestDatabases } from "./test-databases.js";

// Setup file of the PostgreSQL run: registered before the test file's own hooks, this runs after them (after
// hooks run in reverse order), once the file's hubs have stopped.
afterAll(dropTestDatabases);
