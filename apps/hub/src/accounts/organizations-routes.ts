import { type Context, Hono } from "hono";
import { readJsonObject } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import { usageSince } from "../router/usage-query.js";
import type { Store } from "../store/store.js";
import { accountsService, parseOrgRole } from "./accounts-service.js";
import { orgInvitesService } from "./invites.js";
import { avatarPath } from "./public-shapes.js";
import { signedInUser } from "./signed-in.js";
import type { Member, Org } from "./types.js";

export interface OrganizationsRoutesDeps {
  store: Store;
  maxBodyBytes: number;
  /** The hub's public URL, for invite links. */
  publicUrl: () => string;
  /** Called after a membership change: cached actors carry their memberships. */
  onMembershipChanged: () => void;
}

const memberView = (member: Member) => ({
  name: member.user.name,
  fullname: member.user.fullname,
  avatarUrl: avatarPath(member.user.name),
  role: member.role,
  since: member.since,
});

/**
 * Organizations for their members, under `/api/organizations` (see /work/notes/api-accounts.md):
 * create (the creator becomes admin), read with members, change and remove members (org admins; anyone may
 * remove themselves: leaving), invitation links, the usage billed to the organization. Every decision is
 * `authorize(actor, action, {kind: "org"})`: read for anyone, manage for the org's admins.
 */
export function organizationsRoutes(deps: OrganizationsRoutesDeps) {
  const accounts = deps.store.accounts;
  const service = accountsService(accounts);
  const invites = orgInvitesService(accounts, deps.store.orgInvites);
  const app = new Hono<HubEnv>();

  const body = (c: Context<HubEnv>) => readJsonObject(c, deps.maxBodyBytes);

  async function managed(c: Context<HubEnv>): Promise<Org> {
    const org = await service.org(c.req.param("org") ?? "");
    await c.get("authorizer").authorize(c.get("actor"), "manage", { kind: "org", name: org.name });
    return org;
  }

  async function orgView(org: Org) {
    const members = await accounts.orgs.members(org.id);
    return {
      type: "org" as const,
      name: org.name,
      fullname: org.fullname,
      avatarUrl: avatarPath(org.name),
      createdAt: org.createdAt,
      members: members.map(memberView),
    };
  }

  app.post("/", async (c) => {
    const actor = signedInUser(c);
    // Creating an organization is acting as the user: a session or a write token.
    await c.get("authorizer").authorize(actor, "manage", { kind: "user", name: actor.user.name });
    const input = await body(c);
    const org = await service.createOrg({
      name: input.name,
      fullname: input.fullname,
      owner: actor.user.name,
    });
    deps.onMembershipChanged();
    return c.json(await orgView(org), 201);
  });

  // Invitation links: declared before `/:org` so that "invites" is never read as an organization's name.
  app.get("/invites/:code", async (c) => {
    const offer = await invites.describe(c.req.param("code"));
    c.header("Cache-Control", "no-store");
    return c.json({
      org: offer.org.name,
      fullname: offer.org.fullname,
      role: offer.role,
      expiresAt: offer.expiresAt,
    });
  });

  app.post("/invites/:code/accept", async (c) => {
    const actor = signedInUser(c);
    await c.get("authorizer").authorize(actor, "manage", { kind: "user", name: actor.user.name });
    const joined = await invites.accept(c.req.param("code"), actor.user);
    deps.onMembershipChanged();
    return c.json({ org: joined.org.name, role: joined.role });
  });

  app.get("/:org", async (c) => {
    const org = await service.org(c.req.param("org"));
    await c.get("authorizer").authorize(c.get("actor"), "read", { kind: "org", name: org.name });
    return c.json(await orgView(org));
  });

  app.put("/:org/members/:user", async (c) => {
    const org = await managed(c);
    const changed = await service.setMember(org.name, c.req.param("user"), (await body(c)).role);
    deps.onMembershipChanged();
    return c.json({ name: changed.user.name, role: changed.role });
  });

  app.delete("/:org/members/:user", async (c) => {
    const actor = signedInUser(c);
    const name = c.req.param("user");
    const org = await service.org(c.req.param("org"));
    const leaving = name.toLowerCase() === actor.user.name.toLowerCase();
    // Anyone may leave (as themselves); removing someone else takes the org's admin.
    await c
      .get("authorizer")
      .authorize(
        actor,
        "manage",
        leaving ? { kind: "user", name: actor.user.name } : { kind: "org", name: org.name },
      );
    await service.removeMember(org.name, name);
    deps.onMembershipChanged();
    return c.json({ name, removed: true });
  });

  app.post("/:org/invites", async (c) => {
    const org = await managed(c);
    const input = await body(c);
    const actor = c.get("actor");
    const invite = await invites.create(
      org,
      parseOrgRole(input.role ?? "read"),
      actor.kind === "user" ? actor.user.id : null,
      input.expiresInDays,
    );
    c.header("Cache-Control", "no-store");
    return c.json(
      { ...invite, url: `${deps.publicUrl()}/organizations/invites/${encodeURIComponent(invite.code)}` },
      201,
    );
  });

  app.get("/:org/usage", async (c) => {
    const org = await managed(c);
    const since = usageSince(c.req.query("since"));
    return c.json({ org: org.name, since, usage: await deps.store.usageReports.ofOrg(org.id, since) });
  });

  return app;
}
