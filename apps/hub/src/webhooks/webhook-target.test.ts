import { describe, expect, it } from "vitest";
import { checkTarget, isForbiddenAddress } from "./webhook-target.js";

const hubOrigins = () => ["http://hub.test:8080"];

describe("webhook targets", () => {
  it("knows loopback, link-local, private and reserved addresses, IPv4-mapped ones included", () => {
    for (const address of [
      "127.0.0.1",
      "169.254.169.254",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "::ffff:169.254.169.254",
      // IPv4 inside IPv6 that a translator on the host's network takes to the IPv4 address.
      "64:ff9b::a9fe:a9fe",
      "64:ff9b::10.0.0.5",
      "64:ff9b::7f00:1",
      "2002:7f00:1::",
      "2002:c0a8:101::1",
      "::7f00:1",
      "::127.0.0.1",
      "::ffff:0:7f00:1",
      "64:ff9b:1::a00:5",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "2001:db8::1",
      "fe80::1%eth0",
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of [
      "203.0.113.7",
      "8.8.8.8",
      "2001:4860:4860::8888",
      "::ffff:8.8.8.8",
      // DNS64's answer for a public name on an IPv6-only network, and 6to4 of a public address.
      "64:ff9b::808:808",
      "2002:808:808::1",
    ]) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });

  it("refuses private targets unless allowed, and the hub itself always", async () => {
    const refused = { allowPrivate: false, hubOrigins };
    await expect(checkTarget("http://127.0.0.1:9000/hook", refused)).rejects.toThrow(/private address/);
    await expect(checkTarget("http://169.254.169.254/", refused)).rejects.toThrow(/169\.254\.169\.254/);
    await expect(checkTarget("http://[::ffff:7f00:1]/", refused)).rejects.toThrow(/private address/);
    await expect(checkTarget("http://user:pw@203.0.113.7/", refused)).rejects.toThrow(/credentials/);
    expect((await checkTarget("https://203.0.113.7/hook", refused)).host).toBe("203.0.113.7");

    const allowed = { allowPrivate: true, hubOrigins };
    expect((await checkTarget("http://127.0.0.1:9000/hook", allowed)).port).toBe("9000");
    await expect(checkTarget("http://hub.test:8080/api/whoami-v2", allowed)).rejects.toThrow(
      /the hub itself/,
    );
  });
});
