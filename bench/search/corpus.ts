/**
 * The search bench's corpus and queries (bench:search, bench:search-profile): deterministic, so every run and
 * both databases see the same repositories and the same queries.
 */
import type { Queryable } from "../../apps/hub/src/store/database.js";

export const REPOS = Number(process.env.BENCH_REPOS ?? 100_000);
export const QUERIES = Number(process.env.BENCH_QUERIES ?? 100);

/** A deterministic generator (mulberry32): the same corpus and queries on every run and database. */
export function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = random(39);
const SYLLABLES = "ka ri to mu se na lo vi pe da zu ne ko ra mi so te ba gu fi".split(" ");
/** 8,000 made-up words; picked with a Zipf-like skew, as words of real cards are. */
const WORDS = Array.from({ length: 8000 }, (_, i) => {
  let word = "";
  for (let n = i + 20; n > 0; n = Math.floor(n / 20)) word += SYLLABLES[n % 20];
  return word;
});
const word = () => WORDS[Math.floor(WORDS.length * rand() ** 3)]!;
const words = (n: number) => Array.from({ length: n }, word).join(" ");
const TAGS = Array.from({ length: 400 }, (_, i) => `topic-${WORDS[i * 7]!}`);
const OWNERS = Array.from({ length: 3000 }, (_, i) => `${WORDS[(i * 13) % WORDS.length]!}-lab`);

export interface Repo {
  type: "model" | "dataset" | "space";
  id: string;
  owner: string;
  tags: string[];
  card: string;
}

export function corpus(): Repo[] {
  return Array.from({ length: REPOS }, (_, i) => {
    const type = i % 20 < 12 ? "model" : i % 20 < 17 ? "dataset" : "space";
    const owner = OWNERS[Math.floor(rand() * OWNERS.length)]!;
    const name = `${word()}-${word()}-${i}`;
    const tags = [TAGS[Math.floor(rand() * TAGS.length)]!, TAGS[Math.floor(rand() * TAGS.length)]!];
    const card = `# ${words(4)}\n\n${words(60)}\n\n## Training\n\n${words(40)}\n\n## Evaluation\n\n${words(30)}\n`;
    return { type, id: `${owner}/${name}`, owner, tags, card };
  });
}

/** Multi-row INSERTs of 500 rows in one transaction per table: the triggers queue every row for indexing. */
export async function seed(
  db: Queryable & { transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> },
  repos: Repo[],
) {
  const stamp = new Date().toISOString();
  await db.transaction(async (tx) => {
    for (let start = 0; start < repos.length; start += 500) {
      const batch = repos.slice(start, start + 500);
      const models = batch.filter((repo) => repo.type === "model");
      const others = batch.filter((repo) => repo.type !== "model");
      if (models.length) {
        // A model's repository row too: the hub's start makes a demo repository for a model without one.
        await tx.run(
          `INSERT INTO repos (type, name, owner, private, created_at, last_modified)
           VALUES ${models.map(() => "('model', ?, ?, 0, ?, ?)").join(", ")}`,
          models.flatMap((m) => [m.id, m.owner, stamp, stamp]),
        );
        await tx.run(
          `INSERT INTO models (id, object_id, author, tags, created_at, last_modified, card_text, local_apps)
           VALUES ${models.map(() => "(?, ?, ?, ?, ?, ?, ?, ',')").join(", ")}`,
          models.flatMap((m, i) => [
            m.id,
            (start + i).toString(16).padStart(24, "0"),
            m.owner,
            JSON.stringify(m.tags),
            stamp,
            stamp,
            m.card,
          ]),
        );
      }
      if (others.length) {
        await tx.run(
          `INSERT INTO repos (type, name, owner, private, created_at, last_modified, tags, card_text)
           VALUES ${others.map(() => "(?, ?, ?, 0, ?, ?, ?, ?)").join(", ")}`,
          others.flatMap((r) => [r.type, r.id, r.owner, stamp, stamp, JSON.stringify(r.tags), r.card]),
        );
      }
    }
  });
}

export interface Query {
  kind: string;
  path: string;
  /** The id that should come first, where the query names one repository. */
  expected?: string;
}

export function queries(repos: Repo[]): Query[] {
  const pick = random(7);
  const models = repos.filter((repo) => repo.type === "model");
  const one = () => models[Math.floor(pick() * models.length)]!;
  const list: Query[] = [];
  for (let i = 0; i < QUERIES; i++) {
    // Card words: the rarest three words of a card (what someone who read it would remember).
    const target = one();
    const rare = [...new Set(target.card.split(/\W+/).filter(Boolean))]
      .sort((a, b) => WORDS.indexOf(b) - WORDS.indexOf(a))
      .slice(0, 3);
    list.push({
      kind: "card words",
      path: `/api/models?limit=20&search=${encodeURIComponent(rare.join(" "))}`,
      expected: target.id,
    });
    // A misspelt id: two letters of its name swapped.
    const typo = one();
    const name = typo.id.split("/")[1]!;
    const at = 1 + Math.floor(pick() * 4);
    const misspelt = name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2);
    list.push({
      kind: "misspelt id",
      path: `/api/models?limit=20&search=${encodeURIComponent(misspelt)}`,
      expected: typo.id,
    });
    list.push({ kind: "tag", path: `/api/models?limit=20&search=${TAGS[Math.floor(pick() * TAGS.length)]}` });
    list.push({
      kind: "id fragment",
      path: `/api/models?limit=20&search=${encodeURIComponent(one().owner.slice(0, 5))}`,
    });
    list.push({
      kind: "quicksearch",
      path: `/api/quicksearch?q=${encodeURIComponent(one().id.split("/")[1]!.slice(0, 8))}`,
    });
  }
  return list;
}
