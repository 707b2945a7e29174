import { access, mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { HubError } from "../errors.js";
import { authorEmail } from "../repos/commit-engine.js";
import { lfsPointerText } from "../repos/lfs-pointer.js";
import type { CommitRecord, FileRecord, RepoRecord } from "../repos/repo-records.js";
import type { RepoService } from "../repos/repo-service.js";
import type { GitCommitsTable } from "./git-commits-table.js";
import { runGit } from "./git-process.js";

/** What the materializer reads of the hub: refs, commits, the files of a commit and their bytes. */
export type GitSourceRepos = Pick<RepoService, "refs" | "commitRecord" | "files" | "openContent">;

/** A hub commit whose git object would not have the hub's id: git cannot serve this repository (501). */
export class GitMaterializationError extends HubError {
  constructor(repo: RepoRecord, detail: string) {
    super(501, "git_unavailable", `The git history of ${repo.type} ${repo.id} cannot be served: ${detail}`);
  }
}

/** The ref fast-import writes to while importing; deleted once the hub's refs are set. */
const IMPORT_REF = "refs/modelhub/import";

/**
 * One bare git repository per hub repository under `gitDir` (named by the repository's internal key, so a
 * move keeps it and a new repository under an old name never sees it), kept equal to the hub's records:
 * before each git request, when the hub's refs differ from what was last materialized, the commits git does
 * not have yet are imported with `git fast-import` (each commit as a diff against its first parent, blobs
 * read from the blob store, LFS files as their pointers), their ids are checked against the hub's, and the
 * refs are set to the hub's. The hub's records stay the truth: the bare repository is a cache that can be
 * deleted at any time and is rebuilt on the next request.
 */
export function createBareRepositories(deps: {
  gitDir: string;
  repos: GitSourceRepos;
  /** The bodies of commits pushed with git: rebuilt with their own authors, time zones and message. */
  gitCommits: Pick<GitCommitsTable, "body">;
}) {
  /** Per repository key: the refs last materialized (a fingerprint), and the update running now. */
  const current = new Map<number, string>();
  const running = new Map<number, Promise<string>>();

  const dirOf = (repo: RepoRecord) => join(deps.gitDir, `${repo.key}.git`);

  async function materialize(repo: RepoRecord, refs: { name: string; commitOid: string }[]) {
    const dir = dirOf(repo);
    if (!(await exists(join(dir, "HEAD")))) {
      await mkdir(dir, { recursive: true });
      await runGit(dir, ["init", "--quiet", "--bare", "--initial-branch=main", "."]);
    }
    const have = new Set(lines(await runGit(dir, ["rev-list", "--all"])));
    await addHeldTips(dir, refs, have);
    const missing = await missingCommits(repo, refs, have);
    if (missing.length > 0) await importCommits(repo, dir, missing, have);
    const existing = (await runGit(dir, ["for-each-ref", "--format=%(refname)"]))
      .toString()
      .split("\n")
      .filter(Boolean);
    const wanted = new Set(refs.map((ref) => ref.name));
    const commands = [
      ...refs.map((ref) => `update ${ref.name} ${ref.commitOid}`),
      ...existing.filter((name) => !wanted.has(name)).map((name) => `delete ${name}`),
    ];
    await runGit(dir, ["update-ref", "--stdin"], `${commands.join("\n")}\n`);
  }

  /**
   * Ref tips no ref of the bare repository reaches yet but whose commits it already holds (a git push's
   * objects, moved in by push-session.ts; a branch deleted and made again), with their histories, added to
   * `have`: nothing of them is imported again. Every object here was written by fast-import or by
   * receive-pack after its connectivity check, so a commit held brings its whole history (`git gc` prunes
   * an unreachable commit together with what only it reaches).
   */
  async function addHeldTips(dir: string, refs: { commitOid: string }[], have: Set<string>) {
    const unknown = [...new Set(refs.map((ref) => ref.commitOid).filter((oid) => !have.has(oid)))];
    if (unknown.length === 0) return;
    // "<oid> commit" for a commit held, "<oid> missing" for anything else.
    const checked = lines(
      await runGit(dir, ["cat-file", "--batch-check=%(objectname) %(objecttype)"], `${unknown.join("\n")}\n`),
    );
    const held = checked.filter((line) => line.endsWith(" commit")).map((line) => line.split(" ")[0]!);
    if (held.length === 0) return;
    for (const oid of lines(
      await runGit(dir, ["rev-list", "--stdin", "--not", "--all"], `${held.join("\n")}\n`),
    )) {
      have.add(oid);
    }
  }

  /** The hub's commits reachable from `refs` that git lacks, parents before children. */
  async function missingCommits(
    repo: RepoRecord,
    refs: { commitOid: string }[],
    have: Set<string>,
  ): Promise<CommitRecord[]> {
    const ordered: CommitRecord[] = [];
    const seen = new Set<string>();
    // Iterative post-order: a commit is emitted once all its parents are.
    const stack: { oid: string; record?: CommitRecord }[] = refs.map((ref) => ({ oid: ref.commitOid }));
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (!top.record) {
        if (have.has(top.oid) || seen.has(top.oid)) {
          stack.pop();
          continue;
        }
        const record = await deps.repos.commitRecord(repo, top.oid);
        if (!record) throw new GitMaterializationError(repo, `commit ${top.oid} is not recorded.`);
        top.record = record;
        seen.add(top.oid);
        for (const parent of record.parents) {
          if (!have.has(parent) && !seen.has(parent)) stack.push({ oid: parent });
        }
        continue;
      }
      stack.pop();
      ordered.push(top.record);
    }
    return ordered;
  }

  async function importCommits(repo: RepoRecord, dir: string, commits: CommitRecord[], have: Set<string>) {
    const marksFile = join(dir, "modelhub-import.marks");
    const marks = new Map<string, number>();
    for (const [index, commit] of commits.entries()) marks.set(commit.oid, index + 1);
    const filesCache = new Map<string, Map<string, FileRecord>>();
    const filesOf = async (oid: string) => {
      let files = filesCache.get(oid);
      if (!files) {
        files = new Map((await deps.repos.files(repo, oid)).map((file) => [file.path, file]));
        filesCache.set(oid, files);
      }
      return files;
    };
    const commitRef = (oid: string) => (marks.has(oid) ? `:${marks.get(oid)}` : oid);
    const sentBlobs = new Set<string>();

    async function* stream(): AsyncGenerator<Uint8Array | string> {
      for (const commit of commits) {
        const files = await filesOf(commit.oid);
        const [first, ...others] = commit.parents;
        const base = first ? await filesOf(first) : new Map<string, FileRecord>();
        const changed: FileRecord[] = [];
        for (const file of files.values()) {
          if (base.get(file.path)?.blobOid !== file.blobOid) changed.push(file);
        }
        for (const file of changed) {
          if (sentBlobs.has(file.blobOid)) continue;
          sentBlobs.add(file.blobOid);
          yield* blobCommand(file);
        }
        const pushed = await deps.gitCommits.body(repo.key, commit.oid);
        const time = Math.floor(Date.parse(commit.createdAt) / 1000);
        const signature = `${commit.author} <${authorEmail(commit.author)}> ${time} +0000`;
        const { author, committer, message } = pushed
          ? signaturesOf(pushed)
          : {
              author: signature,
              committer: signature,
              message: commit.message ? `${commit.title}\n\n${commit.message}\n` : `${commit.title}\n`,
            };
        const lines = [
          `reset ${IMPORT_REF}`,
          `commit ${IMPORT_REF}`,
          `mark :${marks.get(commit.oid)}`,
          `author ${author}`,
          `committer ${committer}`,
          `data ${Buffer.byteLength(message)}`,
        ];
        yield `${lines.join("\n")}\n${message}`;
        const tail: string[] = [];
        if (first) tail.push(`from ${commitRef(first)}`);
        for (const parent of others) tail.push(`merge ${commitRef(parent)}`);
        for (const path of base.keys()) if (!files.has(path)) tail.push(`D ${quotePath(path)}`);
        for (const file of changed) tail.push(`M 100644 ${file.blobOid} ${quotePath(file.path)}`);
        yield `${tail.join("\n")}\n\n`;
        // A commit's files are needed again only as the first parent of a later commit.
        if (first) filesCache.delete(first);
      }
      yield "done\n";
    }

    async function* blobCommand(file: FileRecord): AsyncGenerator<Uint8Array | string> {
      if (file.lfs) {
        const pointer = Buffer.from(lfsPointerText(file.sha256, file.size));
        yield `blob\ndata ${pointer.byteLength}\n`;
        yield pointer;
      } else {
        yield `blob\ndata ${file.size}\n`;
        if (file.size > 0) yield* await deps.repos.openContent(file.sha256, { start: 0, end: file.size - 1 });
      }
      yield "\n";
    }

    await runGit(
      dir,
      ["fast-import", "--quiet", "--done", `--export-marks=${marksFile}`, "--force"],
      stream(),
    );
    const made = new Map<number, string>();
    for (const line of (await readFile(marksFile, "utf8")).split("\n")) {
      const [mark, oid] = line.split(" ");
      if (mark && oid) made.set(Number(mark.slice(1)), oid);
    }
    await rm(marksFile, { force: true });
    await runGit(dir, ["update-ref", "-d", IMPORT_REF]).catch(() => {});
    for (const commit of commits) {
      const oid = made.get(marks.get(commit.oid)!);
      if (oid !== commit.oid) {
        throw new GitMaterializationError(
          repo,
          `commit ${commit.oid} rebuilds as ${oid ?? "nothing"} (its records do not describe a git commit exactly, as an imported mirror's may not).`,
        );
      }
      have.add(oid);
    }
  }

  return {
    /**
     * The bare repository of `repo`, brought up to the hub's refs first. Updates of one repository run one
     * at a time; a request that finds one running waits for it and checks again.
     */
    async current(repo: RepoRecord): Promise<string> {
      for (;;) {
        const inFlight = running.get(repo.key);
        if (inFlight) {
          await inFlight.catch(() => {});
          continue;
        }
        const refs = await deps.repos.refs(repo);
        const fingerprint = JSON.stringify(refs);
        // A bare repository deleted meanwhile (it is a cache) is rebuilt: its fingerprint no longer holds.
        if (current.get(repo.key) === fingerprint && (await exists(join(dirOf(repo), "HEAD")))) {
          return dirOf(repo);
        }
        const update = materialize(repo, refs).then(() => {
          current.set(repo.key, fingerprint);
          return dirOf(repo);
        });
        running.set(repo.key, update);
        try {
          return await update;
        } finally {
          running.delete(repo.key);
        }
      }
    },
  };
}

export type BareRepositories = ReturnType<typeof createBareRepositories>;

/**
 * A pushed commit's author and committer lines and message, as git wrote them (git-push.ts keeps only commits
 * whose other headers are tree and parent, which fast-import writes itself).
 */
function signaturesOf(body: string): { author: string; committer: string; message: string } {
  const split = body.indexOf("\n\n");
  const headers = (split < 0 ? body : body.slice(0, split)).split("\n");
  const line = (key: string) =>
    headers.find((header) => header.startsWith(`${key} `))?.slice(key.length + 1) ?? "";
  return {
    author: line("author"),
    committer: line("committer"),
    message: split < 0 ? "" : body.slice(split + 2),
  };
}

/** A path as fast-import reads it: C-style quoted, so that spaces, quotes and non-ASCII names pass. */
function quotePath(path: string): string {
  return `"${path.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

/** The non-empty lines of a git command's output. */
function lines(output: Buffer): string[] {
  return output.toString().split("\n").filter(Boolean);
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
