import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_PORT, parseConfig } from "./config.js";

const options = {
  repoRoot: "/repo",
  providerKeyVariables: { together: "TOGETHER_API_KEY", "fal-ai": "FAL_KEY" },
};

describe("parseConfig", () => {
  it("reads single sign-on settings: all three, or a clear error", () => {
    const oidc = {
      OIDC_ISSUER: "https://sso.example.com/realm",
      OIDC_CLIENT_ID: "hub",
      OIDC_CLIENT_SECRET: "s3cret",
    };
    expect(parseConfig(oidc, options).oidc).toEqual({
      issuer: "https://sso.example.com/realm",
      clientId: "hub",
      clientSecret: "s3cret",
    });
    expect(() => parseConfig({ OIDC_ISSUER: "https://sso.example.com" }, options)).toThrow(
      /needs all of OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET/,
    );
    expect(() => parseConfig({ ...oidc, OIDC_ISSUER: "ftp://x" }, options)).toThrow(/OIDC_ISSUER must be/);
  });

  it("reads provider base URLs, refusing unknown providers, duplicates and credentials", () => {
    const env = {
      PROVIDER_BASE_URLS: " together=http://127.0.0.1:7070/together/ , fal-ai=https://gw.example/fal",
    };
    expect(parseConfig(env, options).providerBaseUrls).toEqual({
      together: "http://127.0.0.1:7070/together",
      "fal-ai": "https://gw.example/fal",
    });
    for (const [value, problem] of [
      ["nebula=http://x", /unknown provider "nebula"/],
      ["together=http://a,together=http://b", /names "together" twice/],
      ["together=ftp://x", /must be an http\(s\) URL/],
      ["together=http://user:secret@x", /must not carry credentials/],
      ["together", /entries are provider=url/],
    ] as const) {
      expect(() => parseConfig({ PROVIDER_BASE_URLS: value }, options)).toThrow(problem);
    }
  });

  it("applies the defaults", () => {
    expect(parseConfig({}, options)).toEqual({
      port: DEFAULT_PORT,
      host: "127.0.0.1",
      publicUrl: undefined,
      spacesPort: DEFAULT_PORT + 1,
      dataDir: "/repo/.data",
      adminToken: undefined,
      providerKeys: {},
      providerBaseUrls: {},
      logLevel: "info",
      usageRetentionDays: 30,
      keepAliveSeconds: 65,
      signupPolicy: "closed",
      oidc: undefined,
      cardImageOrigins: [],
      blobStore: { kind: "fs" },
      blobDownload: "proxy",
      scanning: { policy: "warn", concurrency: 1 },
      webhookAllowPrivate: false,
      orgProvidersAllowPrivate: false,
    });
  });

  it("puts the spaces origin on another port (or none), and refuses a SPACES_URL that is the hub's origin", () => {
    expect(parseConfig({ PORT: "0" }, options).spacesPort).toBe(0);
    expect(parseConfig({ SPACES_PORT: "off" }, options).spacesPort).toBe("off");
    expect(parseConfig({ SPACES_URL: "https://spaces.example.org/" }, options).spacesUrl).toBe(
      "https://spaces.example.org",
    );
    expect(() => parseConfig({ PORT: "9000", SPACES_PORT: "9000" }, options)).toThrow(/SPACES_PORT/);
    expect(() =>
      parseConfig(
        { PUBLIC_URL: "https://hub.example.org", SPACES_URL: "https://hub.example.org/x" },
        options,
      ),
    ).toThrow(/SPACES_URL must be another origin/);
  });

  it("reads WEBHOOK_ALLOW_PRIVATE as a yes or no, refusing anything else by name", () => {
    expect(parseConfig({ WEBHOOK_ALLOW_PRIVATE: "1" }, options).webhookAllowPrivate).toBe(true);
    expect(parseConfig({ WEBHOOK_ALLOW_PRIVATE: "false" }, options).webhookAllowPrivate).toBe(false);
    expect(() => parseConfig({ WEBHOOK_ALLOW_PRIVATE: "maybe" }, options)).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
  });

  it("reads ORG_PROVIDERS_ALLOW_PRIVATE as a yes or no, refusing anything else by name", () => {
    expect(parseConfig({ ORG_PROVIDERS_ALLOW_PRIVATE: "yes" }, options).orgProvidersAllowPrivate).toBe(true);
    expect(parseConfig({ ORG_PROVIDERS_ALLOW_PRIVATE: "0" }, options).orgProvidersAllowPrivate).toBe(false);
    expect(() => parseConfig({ ORG_PROVIDERS_ALLOW_PRIVATE: "sometimes" }, options)).toThrow(
      /ORG_PROVIDERS_ALLOW_PRIVATE/,
    );
  });

  it("reads SCAN_POLICY and SCAN_CONCURRENCY, refusing anything else by name", () => {
    expect(parseConfig({ SCAN_POLICY: "block", SCAN_CONCURRENCY: "2" }, options).scanning).toEqual({
      policy: "block",
      concurrency: 2,
    });
    expect(() => parseConfig({ SCAN_POLICY: "deny" }, options)).toThrow(/SCAN_POLICY must be warn or block/);
    expect(() => parseConfig({ SCAN_CONCURRENCY: "0" }, options)).toThrow(/SCAN_CONCURRENCY must be/);
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

  it("reads CARD_IMAGE_ORIGINS as origins, and refuses anything else by name", () => {
    expect(
      parseConfig({ CARD_IMAGE_ORIGINS: "https://images.example.org, http://127.0.0.1:9000/" }, options)
        .cardImageOrigins,
    ).toEqual(["https://images.example.org", "http://127.0.0.1:9000"]);
    for (const bad of ["images.example.org", "https://images.example.org/cats", "javascript:alert(1)", "*"]) {
      expect(() => parseConfig({ CARD_IMAGE_ORIGINS: bad }, options), bad).toThrow(/CARD_IMAGE_ORIGINS/);
    }
  });
});
