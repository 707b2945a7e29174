/**
 * Likes cannot be used to reach or count what one may not read: liking a private repository one cannot see is
 * answered exactly as liking a missing one, an anonymous like is refused, and no list of likes or trending
 * repositories names a private repository to someone outside it (catalogue/engagement-service.ts).
 */
import { describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const hub = useTestHub();

async function call(method: string, path: string, token?: string) {
  const response = await fetch(`${hub.url}${path}`, {
    method,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  return { status: response.status, code: response.headers.get("x-error-code"), body: await response.text() };
}

describe("likes: an attacker's view", () => {
  it("refuses likes of hidden repositories as of missing ones, and lists none to outsiders", async () => {
    const [owner, outsider] = [await userToken(hub.store, "maya"), await userToken(hub.store, "mallory")];
    for (const [name, isPrivate] of [
      ["maya/secret-model", true],
      ["maya/open-model", false],
    ] as const) {
      const created = await fetch(`${hub.url}/api/repos/create`, {
        method: "POST",
        headers: { Authorization: `Bearer ${owner}`, "Content-Type": "application/json" },
        body: JSON.stringify({ type: "model", name: name.split("/")[1], private: isPrivate }),
      });
      expect(created.status).toBe(200);
      expect((await call("POST", `/api/models/${name}/like`, owner)).status).toBe(200);
    }

    // The outsider: a hidden repository and a missing one answer alike, on every like route.
    for (const method of ["GET", "POST", "DELETE"]) {
      const hidden = await call(method, "/api/models/maya/secret-model/like", outsider);
      const missing = await call(method, "/api/models/maya/no-such-model/like", outsider);
      expect([hidden.status, hidden.code]).toEqual([404, "RepoNotFound"]);
      expect([missing.status, missing.code]).toEqual([404, "RepoNotFound"]);
    }
    expect((await call("GET", "/api/models/maya/secret-model/likers", outsider)).status).toBe(404);
    // Anonymous: no like without an account, even of a public repository.
    expect((await call("POST", "/api/models/maya/open-model/like")).status).toBe(401);
    expect(JSON.parse((await call("GET", "/api/models/maya/open-model/like")).body)).toEqual({
      likes: 1,
      liked: false,
    });

    // Lists: maya's likes and the trending list show the private repository to maya only.
    const likedBy = async (token?: string) =>
      (
        JSON.parse((await call("GET", "/api/users/maya/likes", token)).body) as Array<{
          repo: { name: string };
        }>
      )
        .map((like) => like.repo.name)
        .sort();
    expect(await likedBy(owner)).toEqual(["maya/open-model", "maya/secret-model"]);
    expect(await likedBy(outsider)).toEqual(["maya/open-model"]);
    expect(await likedBy()).toEqual(["maya/open-model"]);
    const trending = async (token?: string) =>
      (JSON.parse((await call("GET", "/api/trending?limit=100", token)).body) as Array<{ id: string }>).map(
        (repo) => repo.id,
      );
    expect(await trending(owner)).toContain("maya/secret-model");
    expect(await trending(outsider)).not.toContain("maya/secret-model");
    expect(await trending()).not.toContain("maya/secret-model");
    // The public listing's like counts and sort never bring a private repository in.
    const listed = JSON.parse(
      (await call("GET", "/api/models?sort=likes&author=maya", outsider)).body,
    ) as Array<{
      id: string;
    }>;
    expect(listed.map((model) => model.id)).toEqual(["maya/open-model"]);
  }, 60_000);
});
