import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.js";

/**
 * A real PostgreSQL server for tests, from Debian's `postgresql` package: `initdb` in a temporary directory,
 * `pg_ctl start` on 127.0.0.1 and a free port, removed by stop(). As root (CI), the server runs as an
 * unprivileged user (`postgres`, else `nobody`) through runuser, since initdb refuses root.
 */
export interface PostgresServer {
  /** `postgres://hub@127.0.0.1:PORT/hub` (trust authentication on loopback). */
  url: string;
  port: number;
  stop(): void;
}

/** Where the server binaries are: Debian keeps them in /usr/lib/postgresql/<version>/bin. */
export function postgresBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => existsSync(join(root, name, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], "bin");
  }
  const found = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim();
  return found ? join(found, "..") : undefined;
}


function serverUser(): { name: string; uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    const id = spawnSync("id", ["-u", name], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
    if (id.status === 0) return { name, uid: Number(id.stdout), gid: Number(gid.stdout) };
  }
  throw new Error("Running as root and no unprivileged user (postgres, nobody) to run PostgreSQL as.");
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed: apt-get install postgresql (see .ci/run).");
  const dir = mkdtempSync(join(tmpdir(), "modelhub-pg-"));
  const data = join(dir, "data");
  const user = serverUser();
  if (user) {
    chownSync(dir, user.uid, user.gid);
    chmodSync(dir, 0o700);
  }
  const run = (command: string, args: string[]) => {
    const [file, argv] = user ? ["runuser", ["-u", user.name, "--", join(bin, command), ...args]] : [join(bin, command), args];
    execFileSync(file, argv, { stdio: ["ignore", "ignore", "pipe"], cwd: dir });
  };
  const port = await freePort();
  try {
    // C locale: text compares byte-wise, as SQLite does. No fsync: a test server's data is thrown away.
    run("initdb", ["-D", data, "-U", "hub", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"]);
    const settings = [
      `-p ${port}`,
      "-c listen_addresses=127.0.0.1",
      `-c unix_socket_directories=${dir}`,
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c max_connections=300",
    ].join(" ");
    run("pg_ctl", ["-D", data, "-o", settings, "-l", join(dir, "server.log"), "-w", "-t", "30", "start"]);
    run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "hub", "hub"]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://hub@127.0.0.1:${port}/hub`,
    port,
    stop() {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
