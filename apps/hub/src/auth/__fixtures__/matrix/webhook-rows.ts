import { CALLERS, type Expected, type Row, SELF_MANAGE } from "./callers.js";
import { fixture, PRIVATE_REPO } from "./fixture.js";

/**
 * The webhooks API (webhooks/webhooks-routes.ts): a user's own webhooks, managed as the account is (a session
 * or a write token). Someone else's webhook does not exist for the caller (404, site admins included: a
 * webhook carries its owner's secret and reads what its owner may read), and a webhook may only watch a
 * repository its owner can read (the private model: 404 to an outsider, as a missing one).
 */
/** A public address that needs no DNS (the matrix's hub does not allow private targets; nothing is sent). */
const TARGET = "http://203.0.113.7/hook";

const seeded = { kept: "", doomed: "" };

/** ada's webhooks: one that the rows read and change, one that the delete row removes. */
export async function seedWebhooks(hubUrl: string): Promise<void> {
  const create = async () => {
    const response = await fetch(`${hubUrl}/api/settings/webhooks`, {
      method: "POST",
      headers: { Authorization: `Bearer ${fixture.tokenOf.orgAdmin}`, "Content-Type": "application/json" },
      body: JSON.stringify({ watched: [{ type: "model", name: PRIVATE_REPO }], url: TARGET, secret: "ada's" }),
    });
    if (!response.ok) throw new Error(`seeding a webhook: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { webhook: { id: string } }).webhook.id;
  };
  seeded.kept = await create();
  seeded.doomed = await create();
}

/** Only ada, its owner, reaches her webhook; to every other valid caller it does not exist. */
const OWNER_ONLY: Expected = Object.fromEntries(
  CALLERS.map((caller) => [
    caller,
    caller === "orgAdmin" ? 200 : SELF_MANAGE[caller] === 200 ? 404 : SELF_MANAGE[caller]!,
  ]),
) as Expected;

export const WEBHOOK_ROWS: Row[] = [
  {
    route: "GET /api/settings/webhooks",
    name: "list one's own webhooks",
    method: "GET",
    path: "/api/settings/webhooks",
    expected: SELF_MANAGE,
  },
  {
    route: "POST /api/settings/webhooks",
    name: "create a webhook watching acme's private repository (an outsider may not read it: 404)",
    method: "POST",
    path: "/api/settings/webhooks",
    body: { watched: [{ type: "model", name: PRIVATE_REPO }], url: TARGET },
    writes: true,
    expected: { ...SELF_MANAGE, otherUser: 404 },
  },
  {
    route: "GET /api/settings/webhooks/:id",
    name: "read ada's webhook (and its secret)",
    method: "GET",
    path: () => `/api/settings/webhooks/${seeded.kept}`,
    expected: OWNER_ONLY,
  },
  {
    route: "POST /api/settings/webhooks/:id",
    name: "point ada's webhook elsewhere",
    method: "POST",
    path: () => `/api/settings/webhooks/${seeded.kept}`,
    body: { url: "http://203.0.113.8/hook" },
    writes: true,
    expected: OWNER_ONLY,
  },
  {
    route: "POST /api/settings/webhooks/:id/disable",
    name: "disable ada's webhook",
    method: "POST",
    path: () => `/api/settings/webhooks/${seeded.kept}/disable`,
    writes: true,
    expected: OWNER_ONLY,
  },
  {
    route: "POST /api/settings/webhooks/:id/enable",
    name: "enable ada's webhook",
    method: "POST",
    path: () => `/api/settings/webhooks/${seeded.kept}/enable`,
    writes: true,
    expected: OWNER_ONLY,
  },
  {
    route: "GET /api/settings/webhooks/:id/deliveries",
    name: "read ada's webhook's delivery log",
    method: "GET",
    path: () => `/api/settings/webhooks/${seeded.kept}/deliveries`,
    expected: OWNER_ONLY,
  },
  {
    route: "POST /api/settings/webhooks/:id/deliveries/:deliveryId/replay",
    name: "replay a delivery of ada's webhook (none was made: 404 to ada too)",
    method: "POST",
    path: () => `/api/settings/webhooks/${seeded.kept}/deliveries/1/replay`,
    writes: true,
    expected: { ...OWNER_ONLY, orgAdmin: 404 },
  },
  {
    route: "POST /api/settings/webhooks/:id/test",
    name: "send a test event to ada's webhook (queued: 201; after the replay row, which must find no delivery)",
    method: "POST",
    path: () => `/api/settings/webhooks/${seeded.kept}/test`,
    writes: true,
    expected: { ...OWNER_ONLY, orgAdmin: 201 },
  },
  {
    route: "DELETE /api/settings/webhooks/:id",
    name: "delete ada's webhook",
    method: "DELETE",
    path: () => `/api/settings/webhooks/${seeded.doomed}`,
    writes: true,
    expected: OWNER_ONLY,
  },
];
