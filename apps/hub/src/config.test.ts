import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_PORT, parseConfig } from "./config.js";

const options = {
  repoRoot: "/repo",
  providerKeyVariables: { together: "TOGETHER_API_KEY", "fal-ai": "FAL_KEY" },
};

describe("parseConfig", () => {
  it("applies the defaults", () => {
    expect(parseConfig({}, options)).toEqual({
      port: DEFAULT_PORT,
      host: "127.0.0.1",
      publicUrl: undefined,
      dataDir: "/repo/.data",
      adminToken: undefined,
      providerKeys: {},
      logLevel: "info",
      usageRetentionDays: 30,
      signupPolicy: "closed",
      blobStore: { kind: "fs" },
      blobDownload: "proxy",
    });
  });

  it("reads every setting, resolving a relative data dir from the repo root", () => {
    const config = parseConfig(
      {
        PORT: "0",
        DATA_DIR: "var/hub",
        ADMIN_TOKEN: "a-long-enough-admin-token",
        TOGETHER_API_KEY: " tg-key ",
        LOG_LEVEL: "warn",
      },
      options,
    );
    expect(config).toMatchObject({
      port: 0,
      dataDir: "/repo/var/hub",
      logLevel: "warn",
      providerKeys: { together: "tg-key" },
    });
  });

  it("lists every problem at once", () => {
    const attempt = () => parseConfig({ PORT: "eighty", ADMIN_TOKEN: "short", LOG_LEVEL: "loud" }, options);
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT[\s\S]*ADMIN_TOKEN[\s\S]*LOG_LEVEL/);
    expect(() => parseConfig({ PORT: "70000" }, options)).toThrow(/PORT/);
  });

  it("reads PUBLIC_URL without its trailing slash, and refuses what is not an absolute http(s) URL", () => {
    expect(parseConfig({ PUBLIC_URL: "https://hub.example/models/" }, options).publicUrl).toBe(
      "https://hub.example/models",
    );
    for (const bad of [
      "hub.example",
      "ftp://hub.example",
      "https://u:p@hub.example",
      "https://hub.example/?a=1",
    ]) {
      expect(() => parseConfig({ PUBLIC_URL: bad }, options), bad).toThrow(/PUBLIC_URL/);
    }
  });

  it("refuses an ADMIN_TOKEN with whitespace: a bearer token carrying it could never match", () => {
    for (const token of [
      "a-long-enough admin-token",
      " a-long-enough-admin-token",
      "a-long-enough-admin-token\n",
    ]) {
      expect(() => parseConfig({ ADMIN_TOKEN: token }, options), JSON.stringify(token)).toThrow(
        /ADMIN_TOKEN must not contain whitespace/,
      );
    }
  });
});
