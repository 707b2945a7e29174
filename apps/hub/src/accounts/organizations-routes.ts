import { Hono, type MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import type { HubEnv } from "../http/hub-env.js";
import { validate } from "../http/validate.js";
import { usageSince } from "../router/usage-query.js";
import type { UsageService } from "../router/usage-service.js";
import { memberRequest, orgInviteRequest, orgRequest, usageQuery } from "./account-schemas.js";
import type { AccountsService } from "./accounts-service.js";
import type { OrgInvitesService } from "./invites.js";
import { avatarPath } from "./public-shapes.js";
import { signedInUser } from "./signed-in.js";
import type { Member, Org } from "./types.js";

export interface OrganizationsRoutesDeps {
  accounts: AccountsService;
  invites: OrgInvitesService;
  usage: UsageService;
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
  const { accounts, invites } = deps;
  const app = new Hono<HubEnv>();
  const json = { maxBytes: deps.maxBodyBytes };

  /** The `:org` of the route (`c.get("org")`), once the caller may manage it: before its body is read. */
  const manager = createMiddleware<HubEnv & { Variables: { org: Org } }>(async (c, next) => {
    const org = await accounts.org(c.req.param("org") ?? "");
    await c.get("authorizer").authorize(c.get("actor"), "manage", { kind: "org", name: org.name });
    c.set("org", org);
    await next();
  });
  /** Acting as the signed-in user (a session or a write token), before the body is read. */
  const asUser: MiddlewareHandler<HubEnv> = async (c, next) => {
    const actor = signedInUser(c);
    await c.get("authorizer").authorize(actor, "manage", { kind: "user", name: actor.user.name });
    await next();
  };

  async function orgView(org: Org) {
    const members = await accounts.members(org.id);
    return {
      type: "org" as const,
      name: org.name,
      fullname: org.fullname,
      avatarUrl: avatarPath(org.name),
      createdAt: org.createdAt,
      members: members.map(memberView),
    };
  }

  // Creating an organization is acting as the user. Its name and full name are checked by the service.
  app.post("/", asUser, validate("json", orgRequest, json), async (c) => {
    const input = c.req.valid("json");
    const org = await accounts.createOrg({
      name: input.name,
      fullname: input.fullname,
      owner: signedInUser(c).user.name,
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

  app.post("/invites/:code/accept", asUser, async (c) => {
    const joined = await invites.accept(c.req.param("code"), signedInUser(c).user);
    deps.onMembershipChanged();
    return c.json({ org: joined.org.name, role: joined.role });
  });

  app.get("/:org", async (c) => {
    const org = await accounts.org(c.req.param("org"));
    await c.get("authorizer").authorize(c.get("actor"), "read", { kind: "org", name: org.name });
    return c.json(await orgView(org));
  });

  app.put("/:org/members/:user", manager, validate("json", memberRequest, json), async (c) => {
    const changed = await accounts.setMember(
      c.get("org").name,
      c.req.param("user"),
      c.req.valid("json").role,
    );
    deps.onMembershipChanged();
    return c.json({ name: changed.user.name, role: changed.role });
  });

  app.delete("/:org/members/:user", async (c) => {
    const actor = signedInUser(c);
    const name = c.req.param("user");
    const org = await accounts.org(c.req.param("org"));
    const leaving = name.toLowerCase() === actor.user.name.toLowerCase();
    // Anyone may leave (as themselves); removing someone else takes the org's admin.
    await c
      .get("authorizer")
      .authorize(
        actor,
        "manage",
        leaving ? { kind: "user", name: actor.user.name } : { kind: "org", name: org.name },
      );
    await accounts.removeMember(org.name, name);
    deps.onMembershipChanged();
    return c.json({ name, removed: true });
  });

  app.post("/:org/invites", manager, validate("json", orgInviteRequest, json), async (c) => {
    const org = c.get("org");
    const input = c.req.valid("json");
    const actor = c.get("actor");
    const invite = await invites.create(
      org,
      input.role,
      actor.kind === "user" ? actor.user.id : null,
      input.expiresInDays,
    );
    c.header("Cache-Control", "no-store");
    return c.json(
      { ...invite, url: `${deps.publicUrl()}/organizations/invites/${encodeURIComponent(invite.code)}` },
      201,
    );
  });

  app.get("/:org/usage", manager, validate("query", usageQuery), async (c) => {
    const org = c.get("org");
    const since = usageSince(c.req.valid("query").since);
    return c.json({ org: org.name, since, usage: await deps.usage.ofOrg(org.id, since) });
  });

  return app;
}
