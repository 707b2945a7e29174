import { createHash, randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateHubToken } from "../auth/hub-tokens.js";
import { bytesSource } from "./__fixtures__/scan-sources.js";
import { SECRETS_SCAN_BYTES, secretsScanner } from "./secrets-scanner.js";

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LETTERS = `${UPPER}abcdefghijklmnopqrstuvwxyz`;
const ALNUM = `${LETTERS}0123456789`;
const BASE64 = `${ALNUM}+/`;
function random(alphabet: string, length: number): string {
  return [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join("");
}

// Generated in each kind's published shape; none is a real credential.
const SECRETS: Array<[kind: string, line: string, secret: string]> = (() => {
  const hf = `hf_${random(LETTERS, 34)}`;
  const hub = generateHubToken();
  const akid = `AKIA${random(`${UPPER}234567`, 16)}`;
  const awsSecret = random(BASE64, 40);
  const azure = `${random(BASE64, 86)}==`;
  const ghp = `ghp_${random(ALNUM, 36)}`;
  const pat = `github_pat_${random(ALNUM, 22)}_${random(ALNUM, 59)}`;
  const openai = `sk-proj-${random(ALNUM, 74)}T3BlbkFJ${random(ALNUM, 74)}`;
  const anthropic = `sk-ant-api03-${random(`${ALNUM}_-`, 93)}AA`;
  const slack = `xoxb-${random("0123456789", 12)}-${random("0123456789", 13)}-${random(ALNUM, 24)}`;
  const stripe = `sk_live_${random(ALNUM, 99)}`;
  const gcpKey = `-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC${random(BASE64, 40)}\\n-----END PRIVATE KEY-----\\n`;
  return [
    ["Hugging Face or Modelhub access token", `HF_TOKEN=${hf}`, hf],
    ["Hugging Face or Modelhub access token", `token: "${hub}"`, hub],
    ["AWS access key id", `aws_access_key_id = ${akid}`, akid],
    ["AWS secret access key", `aws_secret_access_key = ${awsSecret}`, awsSecret],
    ["GCP service account private key", `  "private_key": "${gcpKey}",`, gcpKey.slice(40)],
    [
      "Azure storage connection string",
      `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${azure};EndpointSuffix=core.windows.net`,
      azure,
    ],
    ["GitHub token", `git clone https://${ghp}@github.com/o/r`, ghp],
    ["GitHub fine-grained token", `GITHUB_TOKEN=${pat}`, pat],
    ["OpenAI API key", `openai.api_key = "${openai}"`, openai],
    ["Anthropic API key", `ANTHROPIC_API_KEY=${anthropic}`, anthropic],
    ["Slack token", `slack = "${slack}"`, slack],
    ["Stripe secret key", `stripe.api_key = '${stripe}'`, stripe],
    ["private key (PEM)", "-----BEGIN OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAA"],
  ];
})();

async function scanText(text: string, path = "notes/config.txt") {
  return secretsScanner.scan(bytesSource(Buffer.from(text), path));
}

describe("secrets scanner", () => {
  it("applies to text by content: no NUL byte in the head", () => {
    expect(secretsScanner.appliesTo("train.py", Buffer.from("import os\n"))).toBe(true);
    expect(secretsScanner.appliesTo("LICENSE", Buffer.from("Apache"))).toBe(true);
    expect(secretsScanner.appliesTo("model.safetensors", Buffer.from([8, 0, 0, 0, 0, 0, 0, 0, 0x7b]))).toBe(
      false,
    );
    expect(secretsScanner.appliesTo("empty.txt", Buffer.alloc(0))).toBe(false);
  });

  it("finds each kind on its line and never shows the secret", async () => {
    const lines = ["# a config", ...SECRETS.map(([, line]) => line), "# end"];
    const outcome = await scanText(lines.join("\n"));
    expect(outcome.couldNotScan).toBeUndefined();
    expect(
      outcome.findings.map((finding) => [
        finding.message.replace(/ \([^(]*…, masked\) on line \d+$/, ""),
        finding.location,
      ]),
    ).toEqual(SECRETS.map(([kind], index) => [kind, `line ${index + 2}`]));
    for (const finding of outcome.findings) {
      expect(finding).toMatchObject({ scanner: "secrets", safety: "suspicious" });
      expect(finding.message).toMatch(/…, masked\) on line \d+$/);
      for (const [, , secret] of SECRETS) expect(finding.message).not.toContain(secret.slice(8));
    }
  });

  it("does not take hashes, base64 blobs, UUIDs or look-alikes for secrets", async () => {
    const controls = [
      createHash("sha256").update("x").digest("hex"),
      createHash("sha1").update("x").digest("hex"),
      `oid sha256:${createHash("sha256").update("y").digest("hex")}`,
      randomBytes(300).toString("base64"),
      random(BASE64, 40),
      randomUUID(),
      "hf_hub_download(repo_id='gpt2', filename='config.json')",
      `pk_live_${random(ALNUM, 24)}`,
      "sk-this-is-not-a-key-just-a-sentence",
      "-----BEGIN PUBLIC KEY-----",
      "-----BEGIN CERTIFICATE-----",
      `AKIA${random("abcdefghijklmnop", 16)}`,
      "xoxb-",
    ];
    expect((await scanText(controls.join("\n"))).findings).toEqual([]);
  });

  it("reads across chunk boundaries, long lines and multi-byte text; stops at the byte cap", async () => {
    const token = `hf_${random(LETTERS, 34)}`;
    const padded = `${"é".repeat(3000)}${token}\n${"a".repeat(2_100_000)} ${token}\r\nlast ${token}`;
    const found = await scanText(padded);
    expect(found.findings.map((finding) => finding.location)).toEqual(["line 1", "line 2", "line 3"]);
    const late = Buffer.concat([Buffer.alloc(SECRETS_SCAN_BYTES, "a"), Buffer.from(`\n${token}\n`)]);
    expect((await secretsScanner.scan(bytesSource(late, "big.txt"))).findings).toEqual([]);
  }, 30_000);

  it("never crashes on bytes that are not text", async () => {
    for (let i = 0; i < 5; i++) {
      const outcome = await secretsScanner.scan(bytesSource(randomBytes(20_000), "blob.txt"));
      expect(outcome.couldNotScan).toBeUndefined();
    }
  });
});
