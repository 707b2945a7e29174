import { describe, expect, it } from "vitest";
import { requestJson, seededAccountsPerTest } from "../__fixtures__/seeded-app.js";
import { createApp } from "../app.js";

const { hub, tokens } = seededAccountsPerTest();

const call = (method: string, path: string, token: string | undefined, body?: unknown, app = hub.app) =>
  requestJson(app, method, path, token, body);

describe("site settings", () => {
  it("starts from the configuration and the defaults", async () => {
    expect((await call("GET", "/api/admin/settings", tokens.samWrite)).body).toEqual({
      siteName: "Modelhub",
      notice: "",
      signupPolicy: null,
      configuredSignupPolicy: "closed",
      effectiveSignupPolicy: "closed",
    });
    expect((await call("GET", "/api/site", undefined)).body).toEqual({
      siteName: "Modelhub",
      notice: "",
      cardImageOrigins: [],
    });
  });

  it("lets a site admin open sign-up at run time, and keeps it in the database", async () => {
    const signUp = (name: string, app = hub.app) =>
      call("POST", "/api/auth/signup", undefined, { name, password: "a long enough password" }, app);
    expect((await signUp("early")).status).toBe(403);

    const changed = await call("PUT", "/api/admin/settings", tokens.samWrite, {
      siteName: "Acme Models",
      notice: "Maintenance on Sunday.",
      signupPolicy: "open",
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ signupPolicy: "open", effectiveSignupPolicy: "open" });
    expect((await call("GET", "/api/auth/options", undefined)).body.signupPolicy).toBe("open");
    expect((await signUp("welcome")).status).toBe(201);

    // Another hub on the same database (a replica, or this one restarted) sees the same settings.
    const replica = createApp({ store: hub.store });
    expect((await call("GET", "/api/site", undefined, undefined, replica)).body).toEqual({
      siteName: "Acme Models",
      notice: "Maintenance on Sunday.",
      cardImageOrigins: [],
    });
    expect((await signUp("also-welcome", replica)).status).toBe(201);

    // null goes back to SIGNUP_POLICY (closed here).
    await call("PUT", "/api/admin/settings", tokens.samWrite, { signupPolicy: null });
    expect((await signUp("too-late")).status).toBe(403);
    expect((await call("GET", "/api/site", undefined)).body.siteName).toBe("Acme Models");
  });

  it("refuses bad values and everyone but site admins, changing nothing", async () => {
    for (const body of [
      { signupPolicy: "anyone" },
      { siteName: "" },
      { siteName: "x".repeat(61) },
      { notice: "two\nlines" },
      { colour: "red" },
      [],
    ]) {
      const answer = await call("PUT", "/api/admin/settings", tokens.samWrite, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call("PUT", "/api/admin/settings", tokens.adaWrite, { signupPolicy: "open" })).status).toBe(
      403,
    );
    expect((await call("PUT", "/api/admin/settings", undefined, { signupPolicy: "open" })).status).toBe(401);
    expect((await call("GET", "/api/admin/settings", tokens.samWrite)).body.signupPolicy).toBeNull();
  });
});
