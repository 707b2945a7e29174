import { describe, expect, it } from "vitest";
import type { SecurityFileStatus } from "../../lib/api/scan.js";
import { antivirusLine, describeFileStatus } from "./scan-status.js";

const scanned = (status: string, extra: Partial<SecurityFileStatus> = {}): SecurityFileStatus => ({
  status,
  avScan: null,
  pickleImportScan: null,
  ...extra,
});

describe("describeFileStatus", () => {
  it("names each status the hub gives in words", () => {
    expect(describeFileStatus(scanned("safe")).label).toBe("Safe");
    expect(describeFileStatus(scanned("suspicious")).label).toBe("Suspicious");
    expect(describeFileStatus(scanned("unsafe")).label).toBe("Unsafe");
    expect(describeFileStatus(scanned("could-not-scan")).label).toBe("Could not scan");
    expect(describeFileStatus(scanned("unscanned")).label).toBe("Not scanned");
    for (const status of ["pending", "waiting", "queued", "scanning"]) {
      expect(describeFileStatus(scanned(status)).kind).toBe("pending");
    }
  });

  it("never calls a missing or unknown status safe", () => {
    expect(describeFileStatus(undefined).kind).toBe("unscanned");
    const unknown = describeFileStatus(scanned("weird"));
    expect(unknown.kind).toBe("unknown");
    expect(unknown.label).toBe("Unknown (weird)");
  });

  it("takes the stricter reading when the imports or the antivirus say worse than the status", () => {
    const dangerousImport = scanned("safe", {
      pickleImportScan: {
        highestSafetyLevel: "dangerous",
        imports: [{ module: "os", name: "system", safety: "dangerous" }],
      },
    });
    expect(describeFileStatus(dangerousImport).kind).toBe("unsafe");
    const virus = scanned("safe", { avScan: { virusFound: true, virusNames: ["Eicar-Test-Signature"] } });
    expect(describeFileStatus(virus).kind).toBe("unsafe");
    const suspiciousImport = scanned("safe", {
      pickleImportScan: { highestSafetyLevel: "suspicious", imports: [] },
    });
    expect(describeFileStatus(suspiciousImport).kind).toBe("suspicious");
    // A file that could not be scanned stays so even with a suspicious import found before the failure.
    const couldNot = scanned("could-not-scan", {
      pickleImportScan: { highestSafetyLevel: "suspicious", imports: [] },
    });
    expect(describeFileStatus(couldNot).kind).toBe("could-not-scan");
  });
});

describe("a safe file's summary", () => {
  it("says what looked at it when no code scanner applies, never 'Not scanned'", () => {
    const nothingApplies = describeFileStatus(scanned("safe"), "safe", []);
    expect(nothingApplies).toMatchObject({ kind: "safe", label: "Safe" });
    expect(nothingApplies.summary).toMatch(/^No scanner applies to this kind of file/);
    const secretsOnly = describeFileStatus(scanned("safe"), "safe", ["secrets"]);
    expect(secretsOnly.summary).toMatch(/checked for secrets.*none found/);
    // A code scanner read it, or the report is not known (the tree): the general words.
    expect(describeFileStatus(scanned("safe"), "safe", ["pickle"]).summary).toMatch(
      /^The scan found nothing/,
    );
    expect(describeFileStatus(scanned("safe")).summary).toMatch(/^The scan found nothing/);
  });
});

describe("antivirusLine", () => {
  it("says not scanned, never clean, when no antivirus ran", () => {
    expect(antivirusLine(scanned("safe")).text).toMatch(/^not scanned/);
    expect(antivirusLine(scanned("safe")).text).not.toMatch(/clean/);
    expect(antivirusLine(undefined).text).toMatch(/^not scanned/);
  });

  it("names what the antivirus found, or says it found nothing", () => {
    const infected = antivirusLine(
      scanned("unsafe", { avScan: { virusFound: true, virusNames: ["Eicar-Test-Signature"] } }),
    );
    expect(infected).toEqual({ text: "found Eicar-Test-Signature.", tone: "danger" });
    const clean = antivirusLine(scanned("safe", { avScan: { virusFound: false, virusNames: null } }));
    expect(clean.text).toBe("clean: it found nothing.");
  });
});
