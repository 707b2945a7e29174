import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { backToFlatSnapshots } from "../__fixtures__/flat-snapshots.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { ownPostgresUrl } from "../__fixtures__/test-store.js";
import { type StartHubOptions, startHub } from "../start-hub.js";
import type { Database } from "../store/database.js";
import { openPostgresDatabase } from "../store/postgres-database.js";
import { openSqliteDatabase } from "../store/sqlite-database.js";
import { DATABASE_FILE } from "../store/store.js";
import { REPO_CARDS_PENDING } from "./repo-card-backfill.js";

/**
 * A hub whose database is at migration 14 (before datasets and spaces had a card index) holds a dataset and
 * a space with cards; the upgraded hub starts and lists them by their cards' tags at once, without a commit.
 * The old database is made the way it was: today's hub writes the repositories, then the columns migration
 * 15 added are dropped and the schema version set back to 14. On both databases, whatever HUB_TEST_DATABASE
 * says.
 */
const temp = makeTempDir();
let postgres: { url: string; stop(): void } | undefined;
afterAll(() => {
  postgres?.stop();
  temp.remove();
});

const DATASET_CARD = "---\nlicense: mit\nlanguage: [en, fr]\ntags: [tabular]\n---\n# Old rows\n";
const SPACE_CARD = "---\ntitle: Old demo\nsdk: gradio\nlicense: apache-2.0\n---\n# Old demo\n";

async function call(url: string, path: string, token: string, init: RequestInit & { json?: unknown } = {}) {
  const { json, ...rest } = init;
  const response = await fetch(`${url}${path}`, {
    ...rest,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(json === undefined ? {} : { "Content-Type": "application/json" }),
      ...(rest.headers as Record<string, string> | undefined),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return response.json() as Promise<Record<string, unknown> & Array<Record<string, unknown>>>;
}

const commitReadme = (url: string, repo: string, token: string, readme: string) =>
  call(url, `/api/${repo}/commit/main`, token, {
    method: "POST",
    headers: { "Content-Type": "application/x-ndjson" },
    body: [
      { key: "header", value: { summary: "card" } },
      {
        key: "file",
        value: { path: "README.md", content: Buffer.from(readme).toString("base64"), encoding: "base64" },
      },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  });

/**
 * Puts the database back where migration 14 left it, at version 14: without the columns 15 added, the flag 16
 * set, with the usage indexes 17 replaced, without what 18 added, and with flat snapshots (19-21).
 */
async function backToMigration14(db: Database): Promise<void> {
  await backToFlatSnapshots(db);
  await db.exec("ALTER TABLE xet_files DROP COLUMN sha256_checked; DROP TABLE lfs_upload_parts");
  await db.run("DELETE FROM meta WHERE key = ?", ["xet_sha256_pending"]);
  await db.exec(
    "ALTER TABLE repos DROP COLUMN card_data; ALTER TABLE repos DROP COLUMN tags; ALTER TABLE repos DROP COLUMN sdk",
  );
  await db.exec(
    "DROP INDEX usage_by_bill_to; CREATE INDEX usage_by_bill_to ON usage (bill_to_id, created_at); CREATE INDEX usage_by_token ON usage (token_id, created_at)",
  );
  await db.run("DELETE FROM meta WHERE key = ?", [REPO_CARDS_PENDING]);
  if (db.dialect === "sqlite") await db.exec("PRAGMA user_version = 14");
  else await db.run("UPDATE schema_version SET version = 14");
}

async function upgradeFrom14(options: Pick<StartHubOptions, "dataDir" | "databaseUrl">) {
  const hubOptions = { ...options, providerSim: false } as const;
  const old = await startHub(hubOptions);
  const token = await userToken(old.store, "olga");
  await call(old.url, "/api/repos/create", token, {
    method: "POST",
    json: { type: "dataset", name: "olga/rows" },
  });
  await commitReadme(old.url, "datasets/olga/rows", token, DATASET_CARD);
  await call(old.url, "/api/repos/create", token, {
    method: "POST",
    json: { type: "space", name: "olga/demo" },
  });
  await commitReadme(old.url, "spaces/olga/demo", token, SPACE_CARD);
  await old.close();
  const db = options.databaseUrl
    ? openPostgresDatabase({ url: options.databaseUrl, max: 1 })
    : openSqliteDatabase(join(options.dataDir, DATABASE_FILE));
  try {
    await backToMigration14(db);
  } finally {
    await db.close();
  }

  const upgraded = await startHub(hubOptions);
  try {
    const dataset = await call(upgraded.url, "/api/datasets/olga/rows", token);
    expect(dataset.tags).toEqual(["tabular", "license:mit", "language:en", "language:fr"]);
    expect(dataset.cardData).toEqual({ license: "mit", language: ["en", "fr"], tags: ["tabular"] });
    const byTag = await call(upgraded.url, "/api/datasets?filter=license:mit&filter=language:fr", token);
    expect(byTag.map((row) => row.id)).toEqual(["olga/rows"]);
    const space = await call(upgraded.url, "/api/spaces/olga/demo", token);
    expect(space).toMatchObject({ sdk: "gradio", tags: ["gradio", "license:apache-2.0"] });
    const spaces = await call(upgraded.url, "/api/spaces?filter=gradio", token);
    expect(spaces.map((row) => row.id)).toEqual(["olga/demo"]);
    // Once: the note migration 16 left is gone.
    expect(await upgraded.store.meta.get(REPO_CARDS_PENDING)).toBeUndefined();
  } finally {
    await upgraded.close();
  }
}

const dataDir = (name: string) => {
  const dir = join(temp.dir, name);
  mkdirSync(dir);
  return dir;
};

describe("datasets and spaces committed before their cards were indexed (migration 15)", () => {
  it("on SQLite: are indexed once when the upgraded hub starts", async () => {
    await upgradeFrom14({ dataDir: dataDir("sqlite") });
  }, 120_000);

  it("on PostgreSQL: are indexed once when the upgraded hub starts", async () => {
    postgres = await ownPostgresUrl("card_backfill");
    await upgradeFrom14({ dataDir: dataDir("postgres"), databaseUrl: postgres.url });
  }, 120_000);
});
