import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { currentTransaction, NestedTransactionError } from "./database.js";
import { openSqliteDatabase } from "./sqlite-database.js";

describe("the transaction context", () => {
  let dir: string;
  let db: ReturnType<typeof openSqliteDatabase>;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "modelhub-tx-context-"));
    db = openSqliteDatabase(join(dir, "hub.db"));
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is the transaction inside its work, across awaits, and nothing outside", async () => {
    expect(currentTransaction()).toBeUndefined();
    await db.transaction(async (tx) => {
      expect(currentTransaction()).toBe(tx);
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(currentTransaction()).toBe(tx);
    });
    expect(currentTransaction()).toBeUndefined();
  });

  it("refuses a transaction started inside another, also after the context was idle in between", async () => {
    for (let round = 0; round < 2; round++) {
      await expect(db.transaction(() => db.transaction(async () => 1))).rejects.toBeInstanceOf(
        NestedTransactionError,
      );
      // Between transactions the context is off (no promise hooks); the next one turns it on again.
      await expect(db.transaction(async (tx) => tx.transaction(async () => 2))).resolves.toBe(2);
    }
  });

  it("keeps each of two overlapping transactions' context until the last one ends", async () => {
    let releaseFirst!: () => void;
    const first = db.transaction(async (tx) => {
      await new Promise<void>((resolve) => {
        releaseFirst = resolve;
      });
      return currentTransaction() === tx;
    });
    // The second waits for the first's lock; the first must still see its own transaction meanwhile.
    const second = db.transaction(async (tx) => currentTransaction() === tx);
    await new Promise((resolve) => setTimeout(resolve, 5));
    releaseFirst();
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
    expect(currentTransaction()).toBeUndefined();
  });
});
