import { describe, expect, it } from "vitest";
import { basicAsBearer } from "../auth/middleware.js";
import { acceptsBasicCredentials } from "./git-routes.js";

const basic = (text: string) => `Basic ${Buffer.from(text).toString("base64")}`;

describe("HTTP Basic credentials on git and LFS routes", () => {
  it("reads the password as the token, whatever the user name", () => {
    expect(basicAsBearer(basic("git:hf_abc"))).toBe("Bearer hf_abc");
    expect(basicAsBearer(basic("alice:hf_a:b"))).toBe("Bearer hf_a:b");
  });

  it("leaves anything else as sent, so that it stays an invalid credential", () => {
    expect(basicAsBearer(basic("git:"))).toBe(basic("git:"));
    expect(basicAsBearer(basic("hf_abc"))).toBe(basic("hf_abc"));
    expect(basicAsBearer("Bearer hf_abc")).toBe("Bearer hf_abc");
  });

  it("is accepted on git's and git-lfs's paths only", () => {
    for (const path of [
      "/acme/model/info/refs",
      "/datasets/acme/data.git/git-upload-pack",
      "/spaces/acme/app/git-receive-pack",
      "/acme/model.git/info/lfs/objects/batch",
      "/acme/model.git/info/lfs/objects/verify",
      "/acme/model.git/info/lfs/locks/verify",
      "/api/lfs-download/payload.signature",
    ]) {
      expect(acceptsBasicCredentials(path), path).toBe(true);
    }
    for (const path of [
      "/api/whoami-v2",
      "/api/models/acme/model",
      "/acme/model/resolve/main/info/refs.txt",
    ]) {
      expect(acceptsBasicCredentials(path), path).toBe(false);
    }
  });
});
