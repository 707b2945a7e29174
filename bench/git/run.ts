/**
 * git over the hub (issue 37), `npm run bench:git -w bench`: a repository of BENCH_GIT_FILES small files
 * (10,000) and one BENCH_GIT_LFS_MB LFS file (1 GiB) is pushed to a hub started as `npm start` does (git push,
 * git-lfs uploading the big file), then cloned and fetched from it beside the floor: the same repository as a
 * bare repository served by `git http-backend` on loopback (a few lines of CGI here), and over file://.
 *
 * Rows: `git clone` without LFS content (GIT_LFS_SKIP_SMUDGE=1, what git itself carries), `git clone` with
 * git-lfs fetching the big file from the hub (against the floor cloning a bare repository that holds the big
 * file as a regular blob: the same bytes through git), and `git fetch` of one new commit of 100 files (made on
 * the hub with git push, on the floor with a push to the bare repository). Wall seconds, ratio floor/hub
 * (≥ 0.8x is the goal: the hub at least 80% of the floor's speed), and the hub process's CPU seconds.
 * Every command runs once per row, after one warm-up clone (which also materializes the hub's bare copy).
 */
import { execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startNpmStartHub } from "../npm-start-hub.js";
import { benchToken, hubApi, treeCpuSeconds, writeRandomFile } from "../repos/measure.js";

const FILES = Number(process.env.BENCH_GIT_FILES ?? 10_000);
const LFS_MB = Number(process.env.BENCH_GIT_LFS_MB ?? 1024);
const ADMIN_TOKEN = `bench-admin-${process.pid}-${Date.now()}`;

const work = mkdtempSync(join(tmpdir(), "modelhub-bench-git-"));
const home = join(work, "home");
mkdirSync(home);

function git(args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      args,
      {
        cwd,
        maxBuffer: 256 * 1024 * 1024,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_TERMINAL_PROMPT: "0",
          LANG: "C",
          GIT_AUTHOR_NAME: "Bench",
          GIT_AUTHOR_EMAIL: "bench@example.org",
          GIT_COMMITTER_NAME: "Bench",
          GIT_COMMITTER_EMAIL: "bench@example.org",
          ...env,
        },
      },
      (error, stdout, stderr) =>
        error ? reject(new Error(`git ${args.join(" ")}: ${stderr}`)) : resolve(stdout.toString()),
    );
  });
}

/** `git http-backend` behind a loopback HTTP server: the floor git's own server sets. */
function httpBackend(projectRoot: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const child = spawn("git", ["http-backend"], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: "1",
        GIT_CONFIG_NOSYSTEM: "1",
        HOME: home,
        REQUEST_METHOD: req.method ?? "GET",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        ...(req.headers["content-encoding"]
          ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] }
          : {}),
        ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: String(req.headers["git-protocol"]) } : {}),
        REMOTE_ADDR: "127.0.0.1",
      },
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on("data", (chunk: Buffer) => {
      if (headersDone) {
        if (!res.write(chunk)) child.stdout.pause();
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString().split("\r\n")) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === "status") status = Number(value.split(" ")[0]);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    res.on("drain", () => child.stdout.resume());
    child.stdout.on("end", () => res.end());
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${address.port}`, server });
    }),
  );
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(command, args, (error) => (error ? reject(error) : resolve())),
  );
}

async function timed(work: () => Promise<unknown>, pid?: number): Promise<{ wall: number; cpu?: number }> {
  const cpuBefore = pid ? treeCpuSeconds(pid) : 0;
  const start = process.hrtime.bigint();
  await work();
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  return { wall, ...(pid ? { cpu: treeCpuSeconds(pid) - cpuBefore } : {}) };
}

async function main() {
  console.error(`bench:git: ${FILES} files and a ${LFS_MB} MiB LFS file, in ${work}`);
  await git(["lfs", "install", "--skip-repo"], work);

  // The source repository: FILES small files in folders of 100, and the big file tracked by LFS.
  const source = join(work, "source");
  mkdirSync(source);
  await git(["init", "--quiet", "--initial-branch=main"], source);
  for (let index = 0; index < FILES; index++) {
    const dir = join(source, "files", String(Math.floor(index / 100)).padStart(4, "0"));
    if (index % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file-${index}.txt`), `file ${index}\n${"x".repeat(index % 512)}\n`);
  }
  await git(["lfs", "track", "*.bin"], source);
  await writeRandomFile(join(source, "big.bin"), LFS_MB);
  await git(["add", "."], source);
  await git(["commit", "--quiet", "-m", "bench repository"], source);

  // The floors: bare repositories of the same history, one with the big file's pointer (as the hub serves it),
  // one with the big file's bytes as a regular blob (the same bytes through git).
  const floorRoot = join(work, "floor");
  mkdirSync(floorRoot);
  await git(["clone", "--quiet", "--bare", "--no-local", source, join(floorRoot, "pointers.git")], work);
  // The same files with the big one as a regular blob: no .gitattributes, so git-lfs's filter stays out.
  const regular = join(work, "regular");
  mkdirSync(regular);
  await run("cp", ["-r", join(source, "files"), join(source, "big.bin"), regular]);
  await git(["init", "--quiet", "--initial-branch=main"], regular);
  await git(["add", "."], regular);
  await git(["commit", "--quiet", "-m", "bench repository, big file as a blob"], regular);
  await git(["clone", "--quiet", "--bare", "--no-local", regular, join(floorRoot, "regular.git")], work, {
    GIT_LFS_SKIP_SMUDGE: "1",
  });
  const backend = await httpBackend(floorRoot);

  const hub = await startNpmStartHub({ ADMIN_TOKEN });
  try {
    const token = await benchToken(hub.url, ADMIN_TOKEN);
    const api = hubApi(hub.url, token);
    await api("/api/repos/create", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "bench/git" }),
    });
    const hubRepo = `${hub.url.replace("://", `://git:${token}@`)}/bench/git`;
    const credentials = {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "credential.helper",
      GIT_CONFIG_VALUE_0: `!f() { echo username=git; echo password=${token}; }; f`,
    };
    // The hub's repository starts with its own initial commit: the benchmark's history replaces it.
    const push = await timed(
      () => git(["push", "--quiet", "--force", hubRepo, "main"], source, credentials),
      hub.pid,
    );

    const rows: string[] = [];
    const row = (
      what: string,
      hubTime: { wall: number; cpu?: number },
      floor: { wall: number },
      file?: { wall: number },
    ) =>
      rows.push(
        `| ${what} | ${hubTime.wall.toFixed(2)} s | ${hubTime.cpu?.toFixed(2) ?? "-"} s | ${floor.wall.toFixed(2)} s | ${(floor.wall / hubTime.wall).toFixed(2)}x | ${file ? `${file.wall.toFixed(2)} s` : "-"} |`,
      );
    let n = 0;
    const target = () => join(work, `clone-${n++}`);

    // Warm-up: materializes the hub's bare copy (first git request after a push) and the page cache.
    const warm = await timed(
      () => git(["clone", "--quiet", hubRepo, target()], work, { GIT_LFS_SKIP_SMUDGE: "1" }),
      hub.pid,
    );
    await git(["clone", "--quiet", `${backend.url}/pointers.git`, target()], work, {
      GIT_LFS_SKIP_SMUDGE: "1",
    });

    row(
      "git clone (LFS pointers only)",
      await timed(
        () => git(["clone", "--quiet", hubRepo, target()], work, { GIT_LFS_SKIP_SMUDGE: "1" }),
        hub.pid,
      ),
      await timed(() =>
        git(["clone", "--quiet", `${backend.url}/pointers.git`, target()], work, {
          GIT_LFS_SKIP_SMUDGE: "1",
        }),
      ),
      await timed(() =>
        git(["clone", "--quiet", `file://${join(floorRoot, "pointers.git")}`, target()], work, {
          GIT_LFS_SKIP_SMUDGE: "1",
        }),
      ),
    );
    row(
      `git clone with the ${LFS_MB} MiB file (git-lfs from the hub; floor: a regular blob)`,
      await timed(() => git(["clone", "--quiet", hubRepo, target()], work, credentials), hub.pid),
      await timed(() =>
        git(["clone", "--quiet", `${backend.url}/regular.git`, target()], work, { GIT_LFS_SKIP_SMUDGE: "1" }),
      ),
      await timed(() =>
        git(["clone", "--quiet", `file://${join(floorRoot, "regular.git")}`, target()], work, {
          GIT_LFS_SKIP_SMUDGE: "1",
        }),
      ),
    );

    // fetch: one new commit of 100 files, pushed to both, fetched into a clone made before it.
    const hubClone = target();
    await git(["clone", "--quiet", hubRepo, hubClone], work, { GIT_LFS_SKIP_SMUDGE: "1" });
    const floorClone = target();
    await git(["clone", "--quiet", `file://${join(floorRoot, "pointers.git")}`, floorClone], work, {
      GIT_LFS_SKIP_SMUDGE: "1",
    });
    mkdirSync(join(source, "more"));
    for (let index = 0; index < 100; index++)
      writeFileSync(join(source, "more", `m-${index}.txt`), `more ${index}\n`);
    await git(["add", "."], source);
    await git(["commit", "--quiet", "-m", "100 more"], source);
    await git(["push", "--quiet", hubRepo, "main"], source, credentials);
    await git(["push", "--quiet", `file://${join(floorRoot, "pointers.git")}`, "main"], source, {
      GIT_LFS_SKIP_PUSH: "1",
    });
    row(
      "git fetch of a new commit of 100 files",
      await timed(() => git(["fetch", "--quiet", "origin"], hubClone), hub.pid),
      await timed(() => git(["fetch", "--quiet", "origin"], floorClone)),
    );

    const report = [
      `# ${new Date().toISOString().slice(0, 10)}: git clone and fetch through the hub (issue 37), \`npm run bench:git -w bench\``,
      "",
      `${FILES} small files and a ${LFS_MB} MiB LFS file. Load average at the end: ${loadavg()
        .map((value) => value.toFixed(1))
        .join(", ")} (a shared machine: wall figures are indicative only).`,
      `Push of the repository to the hub (git push --force, git-lfs uploading the big file): ${push.wall.toFixed(2)} s wall, ${push.cpu?.toFixed(2)} s hub CPU.`,
      `First clone after the push (materializes the hub's bare copy): ${warm.wall.toFixed(2)} s wall, ${warm.cpu?.toFixed(2)} s hub CPU.`,
      "",
      "| what | hub | hub CPU | floor: git http-backend | floor / hub | file:// |",
      "| --- | --- | --- | --- | --- | --- |",
      ...rows,
    ].join("\n");
    console.log(report);
  } finally {
    await hub.stop();
    backend.server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
