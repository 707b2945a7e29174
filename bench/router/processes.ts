import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** A server in its own process, so that none shares an event loop (or a CPU account) with another. */
export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  /** CPU time (user + system, every thread) the process has used so far, in ms (10 ms ticks). */
  cpuMs(): number;
  /** Each live thread's time on a CPU so far, in ns (schedstat): finer than cpuMs's ticks. */
  threadTimes(): ThreadTimes;
  /** V8 trace lines seen on its stdout so far (with --trace-opt, --trace-deopt, --trace-gc in its node options). */
  traced(): TraceCounts;
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** Where the process's stderr goes: the terminal (default) or an open file descriptor. */
  stderr?: "inherit" | number;
  /** How long it may take to print its URL (a first start loads the hub's catalogue). */
  timeoutMs?: number;
}

/**
 * Starts `node <args>` and waits for its first line on stdout: `{"url": ...}` or a bare URL (provider-sim's
 * CLI).
 */
export function startServer(
  name: string,
  args: string[],
  options: StartOptions = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, {
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", options.stderr ?? "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${name} printed no URL within ${options.timeoutMs ?? 60_000} ms`));
    }, options.timeoutMs ?? 60_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before printing its URL (its stderr says why)`));
    });
    // The first line that names the server's URL: a bare URL, `{"url": ...}`, or the hub's "running at URL".
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      const url = line.startsWith("{")
        ? (JSON.parse(line) as { url: string }).url
        : (/^(https?:\/\/\S+)$/.exec(line.trim()) ?? / is running at (https?:\/\/\S+)/.exec(line))?.[1];
      if (!url) return;
      lines.removeAllListeners("line");
      const stdoutDir = process.env.BENCH_STDOUT_DIR;
      // The rest of its stdout (a V8 trace from its node options): counted, and stamped to a file for
      // reading beside the run.
      const counts: TraceCounts = { compiles: 0, deopts: 0, majorGcs: 0 };
      lines.on("line", (rest) => {
        if (rest.startsWith("[completed compiling")) counts.compiles++;
        else if (rest.startsWith("[bailout")) counts.deopts++;
        else if (rest.includes(" ms: Mark-Compact")) counts.majorGcs++;
        if (stdoutDir) appendFileSync(join(stdoutDir, `${name}.log`), `${Date.now()} ${rest}\n`);
      });
      clearTimeout(timer);
      const pid = child.pid!;
      resolve({
        name,
        url,
        pid,
        cpuMs: () => processCpuMs(pid),
        threadTimes: () => threadTimes(pid),
        traced: () => ({ ...counts }),
        stop: () => {
          child.kill("SIGTERM");
          return exited;
        },
      });
    });
  });
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"]).toString()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of /proc/<pid>/stat (fields 14 and 15), in ms: every thread of the process, GC included. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces: count from the ")" that closes it.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

export interface TraceCounts {
  /** TurboFan compiles finished (`[completed compiling`). */
  compiles: number;
  /** Deoptimizations (`[bailout`). */
  deopts: number;
  /** Full collections (`Mark-Compact` lines of --trace-gc). */
  majorGcs: number;
}

/** Time on a CPU of each thread, by thread id, in ns; the main thread's id is the process's. */
export type ThreadTimes = Map<number, number>;

/**
 * The first field of /proc/<pid>/task/<tid>/schedstat: the thread's time on a CPU in ns (the scheduler's
 * own account, GC and compiler threads included), where /proc/<pid>/stat counts 10 ms ticks. A thread that
 * ends between two readings takes its time with it: `cpuBetween` says how many did.
 */
export function threadTimes(pid: number): ThreadTimes {
  const times: ThreadTimes = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      times.set(Number(tid), ns);
    } catch {
      // The thread ended while the list was read.
    }
  }
  return times;
}

/** CPU ms of a process between two readings: in all, on its main thread, and the threads that ended. */
export function cpuBetween(
  pid: number,
  before: ThreadTimes,
  after: ThreadTimes,
): { ms: number; mainMs: number; endedThreads: number } {
  let ns = 0;
  for (const [tid, time] of after) ns += time - (before.get(tid) ?? 0);
  const mainNs = (after.get(pid) ?? 0) - (before.get(pid) ?? 0);
  const endedThreads = [...before.keys()].filter((tid) => !after.has(tid)).length;
  return { ms: ns / 1e6, mainMs: mainNs / 1e6, endedThreads };
}

/** This process's own CPU time so far, in ms (the load generator's). */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}
