import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { freePort } from "./free-port.js";

/** Debian's nginx (`apt-get install nginx-light`; .ci/run installs it). */
export const NGINX = process.env.HUB_TEST_NGINX ?? "/usr/sbin/nginx";

export interface RunningNginx {
  url: string;
  /** What nginx logged for each request: the URI it finally served (after an internal redirect) and status. */
  served(): { uri: string; status: number }[];
  stop(): Promise<void>;
}


/**
 * Starts nginx in `dir` (its own configuration, logs and temp paths there) with `serverBlock` (text of a
 * `server {}` block) whose `listen` is rewritten to a free loopback port. Every request is logged with the
 * URI nginx served it from, so a test can tell whether an internal location was reached.
 */
export async function startNginx(dir: string, serverBlock: string): Promise<RunningNginx> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} not found: apt-get install -y nginx-light (or set HUB_TEST_NGINX)`);
  mkdirSync(dir, { recursive: true });
  const temps = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"];
  for (const name of temps) mkdirSync(join(dir, name), { recursive: true });
  const log = join(dir, "served.log");
  // The port can be taken between freePort and nginx's bind (other test files run at once): a few tries.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    writeFileSync(
      join(dir, "nginx.conf"),
      `${process.getuid?.() === 0 ? "user root;" : ""}
worker_processes 1;
daemon off;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
events { worker_connections 256; }
http {
  log_format served '$uri $status';
  access_log ${log} served;
  ${temps.map((name) => `${name}_temp_path ${join(dir, name)};`).join("\n  ")}
  default_type application/octet-stream;
  ${serverBlock.replace(/listen\s+[^;]+;/, `listen 127.0.0.1:${port};`)}
}
`,
    );
    const child = spawn(NGINX, ["-p", dir, "-c", join(dir, "nginx.conf")], { stdio: "ignore" });
    const url = `http://127.0.0.1:${port}`;
    if (await answers(child, url)) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      return {
        url,
        served: () =>
          (existsSync(log) ? readFileSync(log, "utf8") : "")
            .split("\n")
            .filter(Boolean)
            .map((line) => {
              const [uri, status] = line.split(" ");
              return { uri: uri!, status: Number(status) };
            }),
        stop: async () => {
          if (child.exitCode === null) {
            child.kill("SIGQUIT");
            await exited;
          }
        },
      };
    }
    const errors = existsSync(join(dir, "error.log")) ? readFileSync(join(dir, "error.log"), "utf8") : "";
    if (attempt >= 3 || !errors.includes("Address already in use")) {
      throw new Error(`nginx did not start: ${errors || "no error log"}`);
    }
  }
}

/** Whether nginx, just spawned, answers on `url` (false once it has exited). */
async function answers(child: ChildProcess, url: string): Promise<boolean> {
  const exited = new Promise<false>((resolve) => child.once("exit", () => resolve(false)));
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) return false;
    const up = await Promise.race([
      fetch(`${url}/nginx-probe`, { method: "HEAD" }).then(
        () => true,
        () => false,
      ),
      exited,
    ]);
    if (up) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill("SIGKILL");
  return false;
}
