import { describe, expect, it } from "vitest";
import { bytesSource } from "./__fixtures__/scan-sources.js";
import { scanFile } from "./scan-file.js";
import type { ScanItem } from "./scan-table.js";
import { securityFileStatus } from "./security-status.js";

/** What the public shape says of files no code scanner applies to: what was checked, never "not scanned". */

async function statusOf(path: string, bytes: Buffer) {
  const report = await scanFile(bytesSource(bytes, path));
  const item = { status: "done", report } as ScanItem;
  return { report, security: securityFileStatus(item) };
}

describe("securityFileStatus of files no code scanner applies to", () => {
  it("is safe when only the secrets scanner read the file and found nothing", async () => {
    const attributes = await statusOf(
      ".gitattributes",
      Buffer.from("*.bin filter=lfs diff=lfs merge=lfs -text\n"),
    );
    expect(attributes.report.scanners).toEqual(["secrets"]);
    expect(attributes.security).toEqual({ status: "safe", avScan: null, pickleImportScan: null });
    const notes = await statusOf("notes.txt", Buffer.from("nothing secret here\n"));
    expect(notes.security.status).toBe("safe");
  });

  it("is safe when no scanner applies to the file's kind, the report saying none read it", async () => {
    const png = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(64)]);
    const { report, security } = await statusOf("logo.png", png);
    expect(report).toMatchObject({ verdict: "safe", scanners: [] });
    expect(report.antivirus.status).toBe("not-scanned");
    expect(security).toEqual({ status: "safe", avScan: null, pickleImportScan: null });
  });

  it("is unscanned only when no scan is known, queued while it runs, suspicious when a secret is found", async () => {
    expect(securityFileStatus(undefined).status).toBe("unscanned");
    expect(securityFileStatus({ status: "pending" } as ScanItem).status).toBe("queued");
    const leaked = await statusOf(
      "config.yml",
      Buffer.from(`token: hf_${"a1B2c3D4e5f6G7h8i9".repeat(2).slice(0, 34)}\n`),
    );
    expect(leaked.report.scanners).toEqual(["secrets"]);
    expect(["suspicious", "unsafe"]).toContain(leaked.security.status);
  });
});
