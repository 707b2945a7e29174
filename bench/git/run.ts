/**
 * git over the hub (issue 37), `npm run bench:git -w bench`: a repository of BENCH_GIT_FILES small files
 * (10,000) and one BENCH_GIT_LFS_MB LFS file (1 GiB) is pushed to a hub started as `npm start` does (git push,
 * git-lfs uploading the big file), then cloned and fetched from it beside the floor: the same repository as a
 * bare repository served by `git http-backend` on loopback, with the least LFS server git-lfs needs beside it
 * (floor-server.ts, in its own process), and over file://.
 *
 * Rows: `git clone` without LFS content (GIT_LFS_SKIP_SMUDGE=1, what git itself carries); `git clone` with
 * git-lfs fetching the big file (the issue's goal row: hub against http-backend plus the floor's LFS server,
 * the same git-lfs client on both sides); the same bytes as a regular blob through git's pack from
 * http-backend (what "git alone" would cost, for reference); `git fetch` of one new commit of 100 files, made
 * on the hub with git push, on the floor with a push to the bare repository. Each row: wall seconds (median
 * of BENCH_GIT_ROUNDS rounds, default 1; hub and floor alternate), ratio floor/hub (≥ 0.8x is the goal: the
 * hub at least 80% of the floor's speed), the server's CPU seconds (the process and the git processes it ran)
 * and the client's (git, git-lfs and their helpers: this process's waited-for children).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startNpmStartHub } from "../npm-start-hub.js";
import { benchToken, download, hubApi, serveChild, untilIdle, writeRandomFile } from "../repos/measure.js";

const FILES = Number(process.env.BENCH_GIT_FILES ?? 10_000);
const LFS_MB = Number(process.env.BENCH_GIT_LFS_MB ?? 1024);
const ROUNDS = Number(process.env.BENCH_GIT_ROUNDS ?? 1);
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

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(command, args, (error) => (error ? reject(error) : resolve())),
  );
}

/**
 * CPU seconds a server process has used, its exited children included (the hub's and http-backend's git
 * processes: /proc's cutime and cstime count the children a process has waited for, which Node does).
 */
function serverCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
}

/** CPU seconds of this process's exited children: the git clients a row ran (and their helpers). */
function clientCpu(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

interface Timing {
  wall: number;
  server: number;
  client: number;
}

async function timed(work: () => Promise<unknown>, serverPid: number): Promise<Timing> {
  const server = serverCpu(serverPid);
  const client = clientCpu();
  const start = process.hrtime.bigint();
  await work();
  return {
    wall: Number(process.hrtime.bigint() - start) / 1e9,
    server: serverCpu(serverPid) - server,
    client: clientCpu() - client,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const medianTiming = (timings: Timing[]): Timing => ({
  wall: median(timings.map((t) => t.wall)),
  server: median(timings.map((t) => t.server)),
  client: median(timings.map((t) => t.client)),
});

async function main() {
  console.error(`bench:git: ${FILES} files and a ${LFS_MB} MiB LFS file, ${ROUNDS} round(s), in ${work}`);
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
  const bigOid = await writeRandomFile(join(source, "big.bin"), LFS_MB);
  const bigSize = LFS_MB * 1024 * 1024;
  await git(["add", "."], source);
  await git(["commit", "--quiet", "-m", "bench repository"], source);

  // The floors: bare repositories of the same history. pointers.git holds the big file's pointer (as the hub
  // serves it) and, in its lfs/objects, the big file for the floor's LFS server; regular.git holds the big
  // file's bytes as a regular blob (the same bytes through git's pack).
  const floorRoot = join(work, "floor");
  mkdirSync(floorRoot);
  const pointers = join(floorRoot, "pointers.git");
  await git(["clone", "--quiet", "--bare", "--no-local", source, pointers], work, {
    GIT_LFS_SKIP_SMUDGE: "1",
  });
  await run("cp", ["-r", join(source, ".git", "lfs"), join(pointers, "lfs")]);
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
  rmSync(regular, { recursive: true, force: true });
  const floor = await serveChild(fileURLToPath(new URL("floor-server.ts", import.meta.url)), floorRoot, home);
  const floorUrl = floor.info.url!;
  const floorPid = floor.child.pid!;

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
    const skipSmudge = { GIT_LFS_SKIP_SMUDGE: "1" };
    // The hub's repository starts with its own initial commit: the benchmark's history replaces it.
    const push = await timed(
      () => git(["push", "--quiet", "--force", hubRepo, "main"], source, credentials),
      hub.pid,
    );

    // The hub scans what was pushed in the background (10,001 files): wait for it to go idle, or that CPU is
    // counted as the clones'.
    await untilIdle(hub.pid, 900);

    let n = 0;
    const target = () => join(work, `clone-${n++}`);
    /** Runs a clone into a new directory, timed against `pid`, then deletes what it cloned. */
    const clone = async (url: string, pid: number, env: Record<string, string>) => {
      const into = target();
      const timing = await timed(() => git(["clone", "--quiet", url, into], work, env), pid);
      rmSync(into, { recursive: true, force: true });
      return timing;
    };

    // Warm-up: materializes the hub's bare copy (the first git request after the push) and the page cache.
    const warm = await clone(hubRepo, hub.pid, skipSmudge);
    await clone(`${floorUrl}/pointers.git`, floorPid, skipSmudge);

    const rows: string[] = [];
    const row = (what: string, hubTimes: Timing[], floorTimes: Timing[], file?: Timing) => {
      const [hubTime, floorTime] = [medianTiming(hubTimes), medianTiming(floorTimes)];
      rows.push(
        `| ${what} | ${hubTime.wall.toFixed(2)} s | ${hubTime.server.toFixed(2)} s | ${hubTime.client.toFixed(2)} s | ${floorTime.wall.toFixed(2)} s | ${floorTime.server.toFixed(2)} s | ${floorTime.client.toFixed(2)} s | **${(floorTime.wall / hubTime.wall).toFixed(2)}x** | ${file ? `${file.wall.toFixed(2)} s` : "-"} |`,
      );
      console.error(rows.at(-1));
    };
    /** ROUNDS of `hubRun` and `floorRun`, alternating. */
    const rounds = async (hubRun: () => Promise<Timing>, floorRun: () => Promise<Timing>) => {
      const hubTimes: Timing[] = [];
      const floorTimes: Timing[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        hubTimes.push(await hubRun());
        floorTimes.push(await floorRun());
      }
      return [hubTimes, floorTimes] as const;
    };

    row(
      "git clone (LFS pointers only)",
      ...(await rounds(
        () => clone(hubRepo, hub.pid, skipSmudge),
        () => clone(`${floorUrl}/pointers.git`, floorPid, skipSmudge),
      )),
      await clone(`file://${pointers}`, floorPid, skipSmudge),
    );
    row(
      `git clone with the ${LFS_MB} MiB file through git-lfs (floor: http-backend + its LFS server)`,
      ...(await rounds(
        () => clone(hubRepo, hub.pid, credentials),
        () => clone(`${floorUrl}/pointers.git`, floorPid, {}),
      )),
    );
    row(
      `(reference) the hub with git-lfs against the ${LFS_MB} MiB file as a regular blob in http-backend's pack`,
      ...(await rounds(
        () => clone(hubRepo, hub.pid, credentials),
        () => clone(`${floorUrl}/regular.git`, floorPid, skipSmudge),
      )),
      await clone(`file://${join(floorRoot, "regular.git")}`, floorPid, skipSmudge),
    );

    // The transfer path alone: the big file fetched by a plain HTTP client from the LFS download URL the
    // batch API hands git-lfs, and from /resolve (the blob store's stream through Readable.toWeb), hub CPU
    // for each; the floor's LFS server for reference.
    const big = await api("/bench/git.git/info/lfs/objects/batch", {
      method: "POST",
      headers: { "Content-Type": "application/vnd.git-lfs+json", Accept: "application/vnd.git-lfs+json" },
      body: JSON.stringify({
        operation: "download",
        transfers: ["basic"],
        objects: [{ oid: bigOid, size: bigSize }],
      }),
    });
    const bigHref = ((await big.json()) as { objects: { actions: { download: { href: string } } }[] })
      .objects[0]!.actions.download.href;
    const transfers: string[] = [];
    for (const [what, url, headers, pid] of [
      ["hub, LFS download URL", bigHref, {}, hub.pid],
      [
        "hub, /resolve",
        `${hub.url}/bench/git/resolve/main/big.bin`,
        { Authorization: `Bearer ${token}` },
        hub.pid,
      ],
      ["floor's LFS server", `${floorUrl}/lfs/pointers.git/${bigOid}`, {}, floorPid],
    ] as const) {
      const timing = await timed(() => download(url, headers), pid);
      transfers.push(
        `| ${what} | ${timing.wall.toFixed(2)} s | ${(LFS_MB / timing.wall).toFixed(0)} MiB/s | ${((timing.server * 1024) / LFS_MB).toFixed(2)} CPU s/GiB |`,
      );
      console.error(transfers.at(-1));
    }

    // fetch: one new commit of 100 files, pushed to both, fetched into a clone made before it.
    const hubFetches: Timing[] = [];
    const floorFetches: Timing[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const hubClone = target();
      await git(["clone", "--quiet", hubRepo, hubClone], work, skipSmudge);
      const floorClone = target();
      await git(["clone", "--quiet", `${floorUrl}/pointers.git`, floorClone], work, skipSmudge);
      mkdirSync(join(source, `more-${round}`));
      for (let index = 0; index < 100; index++)
        writeFileSync(join(source, `more-${round}`, `m-${index}.txt`), `more ${round} ${index}\n`);
      await git(["add", "."], source);
      await git(["commit", "--quiet", "-m", `100 more (${round})`], source);
      await git(["push", "--quiet", hubRepo, "main"], source, credentials);
      await git(["push", "--quiet", `file://${pointers}`, "main"], source, { GIT_LFS_SKIP_PUSH: "1" });
      await untilIdle(hub.pid);
      hubFetches.push(await timed(() => git(["fetch", "--quiet", "origin"], hubClone, skipSmudge), hub.pid));
      floorFetches.push(
        await timed(() => git(["fetch", "--quiet", "origin"], floorClone, skipSmudge), floorPid),
      );
      rmSync(hubClone, { recursive: true, force: true });
      rmSync(floorClone, { recursive: true, force: true });
    }
    row(
      "git fetch of a new commit of 100 files pushed before (the hub idle again)",
      hubFetches,
      floorFetches,
    );

    const report = [
      `# ${new Date().toISOString().slice(0, 10)}: git clone and fetch through the hub (issue 37), \`npm run bench:git -w bench\``,
      "",
      `${FILES} small files and a ${LFS_MB} MiB LFS file, ${ROUNDS} round(s) (medians). Load average at the end: ${loadavg()
        .map((value) => value.toFixed(1))
        .join(", ")} (a shared machine: wall figures are indicative only, CPU seconds steadier).`,
      `Push of the repository to the hub (git push --force, git-lfs uploading the big file): ${push.wall.toFixed(2)} s wall, ${push.server.toFixed(2)} s hub CPU, ${push.client.toFixed(2)} s client CPU.`,
      `First clone after the push (the hub's bare copy brought up to date): ${warm.wall.toFixed(2)} s wall, ${warm.server.toFixed(2)} s hub CPU.`,
      "",
      "Server CPU: the server process and the git processes it ran; client CPU: git, git-lfs and their helpers.",
      "",
      "| what | hub | hub CPU | client CPU | floor | floor server CPU | floor client CPU | floor / hub | file:// |",
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
      ...rows,
      "",
      `The ${LFS_MB} MiB file alone, one plain HTTP GET (Node's http client, bytes discarded):`,
      "",
      "| from | wall | rate | server CPU |",
      "| --- | --- | --- | --- |",
      ...transfers,
    ].join("\n");
    console.log(report);
  } finally {
    await hub.stop();
    floor.child.kill("SIGTERM");
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
