/**
 * The machine's floor for serving files (issue 42): Debian's nginx (`apt-get install nginx-light`) as the
 * benchmark's own process, with its own configuration in a temporary directory, `sendfile on`, serving a
 * directory (the benchmark links the hub's blob store into it, so both serve the same stored bytes).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../apps/hub/src/__fixtures__/free-port.js";

export const NGINX = process.env.BENCH_NGINX ?? "/usr/sbin/nginx";

export interface Nginx {
  url: string;
  /** The master process; its workers are its children. */
  pid: number;
  stop(): Promise<void>;
}

/** The hub's documented nginx configuration for DOWNLOAD_OFFLOAD=x-accel (the one its e2e test runs). */
const OFFLOAD_CONFIG = fileURLToPath(new URL("../../apps/hub/nginx/download-offload.conf", import.meta.url));

function config(dir: string, server: (port: number) => string, port: number): string {
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  return `
# Workers run as the benchmark's user (the hub's data directory is private to it).
${process.getuid?.() === 0 ? "user root;" : ""}
worker_processes auto;
daemon off;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n  ")}
  types { application/json json; }
  default_type application/octet-stream;
  ${server(port)}
}
`;
}

/** Starts nginx serving `root`; resolves once it answers. */
export function startNginx(root: string): Promise<Nginx> {
  return startWith((port) => `server {\n    listen 127.0.0.1:${port};\n    root ${root};\n  }`);
}

/**
 * Starts nginx in front of a hub started with DOWNLOAD_OFFLOAD=x-accel, configured with the hub's own
 * documented file (apps/hub/nginx/download-offload.conf): the hub authorizes, nginx sends the bytes.
 */
export function startNginxInFront(hubUrl: string, dataDir: string): Promise<Nginx> {
  const block = readFileSync(OFFLOAD_CONFIG, "utf8")
    .replace(/^#.*$/gm, "")
    .replaceAll("127.0.0.1:3000", new URL(hubUrl).host)
    .replaceAll("/var/lib/modelhub", dataDir);
  return startWith((port) => block.replace(/listen\s+[^;]+;/, `listen 127.0.0.1:${port};`));
}

async function startWith(server: (port: number) => string): Promise<Nginx> {
  if (!existsSync(NGINX))
    throw new Error(`${NGINX} not found: apt-get install -y nginx-light (or set BENCH_NGINX)`);
  const dir = mkdtempSync(join(tmpdir(), "modelhub-bench-nginx-"));
  for (const name of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, name));
  const port = await freePort();
  writeFileSync(join(dir, "nginx.conf"), config(dir, server, port));
  const child = spawn(NGINX, ["-p", dir, "-c", join(dir, "nginx.conf")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) {
      const log = existsSync(join(dir, "error.log")) ? readFileSync(join(dir, "error.log"), "utf8") : "";
      throw new Error(`nginx exited with ${child.exitCode}: ${log}`);
    }
    const answered = await fetch(`${url}/`, { method: "HEAD" }).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (attempt > 100) throw new Error("nginx did not answer within 5 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill("SIGQUIT");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
