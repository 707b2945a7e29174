/**
 * Who made the request that is being audited, and from where: set for the state-changing requests (the only
 * ones that are audited) after their caller is known, read by the recorder deep inside the services, so that
 * no service signature has to carry the address. An AsyncLocalStorage installs promise hooks every promise
 * pays for while it is enabled: it is enabled only while such a request runs (as store/database.ts does for
 * transactions).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage } from "node:http";
import type { MiddlewareHandler } from "hono";
import type { Actor } from "../auth/actor.js";
import type { HubEnv } from "../http/hub-env.js";

export interface AuditContext {
  actor: Actor;
  ip: string | null;
  userAgent: string | null;
}

const storage = new AsyncLocalStorage<AuditContext>();
let running = 0;

export function currentAuditContext(): AuditContext | undefined {
  return running === 0 ? undefined : storage.getStore();
}

export async function runWithAuditContext<T>(context: AuditContext, work: () => Promise<T>): Promise<T> {
  running++;
  try {
    return await storage.run(context, work);
  } finally {
    if (--running === 0) storage.disable();
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** After the actor middleware: state-changing requests run with their audit context. */
export function auditContextMiddleware(): MiddlewareHandler<HubEnv> {
  // Not async: a read (most requests) passes on without a promise of its own.
  return (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    return runWithAuditContext(
      {
        actor: c.get("actor"),
        ip: incoming?.socket?.remoteAddress ?? null,
        userAgent: c.req.header("user-agent")?.slice(0, 300) ?? null,
      },
      next,
    );
  };
}
