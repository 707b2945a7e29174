import type { ContentScanner, ScanFinding, ScanSource } from "./scan-report.js";

/**
 * Access tokens and keys left in text files (a config, a notebook, a training script): Hugging Face and this
 * hub's tokens, cloud keys, source-host, AI-provider, chat and payment tokens, and private keys. A finding
 * names the kind and the line and never the secret: at most its public prefix. A leaked secret does not run
 * code when a model loads, so findings are suspicious, not dangerous.
 *
 * Text is recognised by content (no NUL byte in the head); the first 10 MiB are read, line by
 * line, streamed. A line longer than 1 MiB is scanned in 1 MiB pieces (a secret across a piece boundary is
 * missed: such lines are minified data, not configs).
 */

export const SECRETS_SCAN_BYTES = 10 * 1024 * 1024;
const MAX_LINE_BYTES = 1024 * 1024;
const MAX_FINDINGS = 100;

interface SecretKind {
  kind: string;
  pattern: RegExp;
  /** The public part a finding may show (the rest is masked). */
  prefix: (match: RegExpExecArray) => string;
}

const first = (length: number) => (match: RegExpExecArray) => (match[0] ?? "").slice(0, length);
const keyword = (match: RegExpExecArray) => match[1] ?? "";

/** The kinds looked for; each pattern is anchored on the kind's fixed shape to keep hashes and base64 out. */
export const SECRET_KINDS: SecretKind[] = [
  // Hugging Face's tokens (hf_ and 34 letters) and this hub's (hf_ and 34 letters or digits, auth/hub-tokens.ts).
  { kind: "Hugging Face or Modelhub access token", pattern: /\bhf_[A-Za-z0-9]{34}\b/g, prefix: first(3) },
  { kind: "AWS access key id", pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b/g, prefix: first(4) },
  {
    kind: "AWS secret access key",
    pattern:
      /\b(aws_secret_access_key|secretAccessKey|AWS_SECRET_ACCESS_KEY)["']?\s*[:=]\s*["']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    prefix: keyword,
  },
  {
    kind: "GCP service account private key",
    pattern: /"private_key"\s*:\s*"-----BEGIN (?:RSA )?PRIVATE KEY-----/g,
    prefix: () => '"private_key"',
  },
  {
    kind: "Azure storage connection string",
    pattern: /\bAccountKey=[A-Za-z0-9+/]{86}==/g,
    prefix: () => "AccountKey=",
  },
  { kind: "GitHub token", pattern: /\bgh[pousr]_[A-Za-z0-9]{36}\b/g, prefix: first(4) },
  {
    kind: "GitHub fine-grained token",
    pattern: /\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b/g,
    prefix: first(11),
  },
  {
    kind: "Anthropic API key",
    pattern: /\bsk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{80,120}\b/g,
    prefix: first(14),
  },
  {
    kind: "OpenAI API key",
    pattern: /\bsk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{20,200}T3BlbkFJ[A-Za-z0-9_-]{20,200}\b/g,
    prefix: (match) => ((match[0] ?? "").startsWith("sk-proj-") ? "sk-proj-" : "sk-"),
  },
  { kind: "Slack token", pattern: /\bxox[abposr]-[0-9A-Za-z-]{10,250}\b/g, prefix: first(5) },
  {
    kind: "Slack webhook URL",
    pattern: /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/[A-Za-z0-9]{20,}/g,
    prefix: () => "https://hooks.slack.com/services/",
  },
  { kind: "Stripe secret key", pattern: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{24,99}\b/g, prefix: first(8) },
  {
    kind: "private key (PEM)",
    pattern: /-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----/g,
    prefix: (match) => match[0] ?? "",
  },
];

export const secretsScanner: ContentScanner = {
  id: "secrets",
  appliesTo(_path, head) {
    // Text by content, whatever the name: binary formats have NUL bytes early (lengths, headers), a text
    // file (UTF-8 or ASCII) has none; a name says nothing a NUL-free head does not (a .txt with NULs is
    // not text we can read line-wise).
    return head.length > 0 && !head.includes(0);
  },
  async scan(source) {
    return { findings: await findSecrets(source) };
  },
};

async function findSecrets(source: ScanSource): Promise<ScanFinding[]> {
  const findings: ScanFinding[] = [];
  const limit = Math.min(source.size, SECRETS_SCAN_BYTES);
  if (limit === 0) return findings;
  let line = 1;
  let pending = "";
  const decoder = new TextDecoder("utf-8");
  const scanLine = (text: string, number: number) => {
    // A match inside another's span on the line (the PEM header of a GCP key) is the same secret.
    const spans: Array<[number, number]> = [];
    for (const kind of SECRET_KINDS) {
      kind.pattern.lastIndex = 0;
      for (let match = kind.pattern.exec(text); match; match = kind.pattern.exec(text)) {
        if (findings.length >= MAX_FINDINGS) return;
        const start = match.index;
        const end = start + match[0].length;
        if (spans.some(([from, to]) => start < to && end > from)) continue;
        spans.push([start, end]);
        findings.push({
          scanner: "secrets",
          safety: "suspicious",
          message: `${kind.kind} (${kind.prefix(match)}…, masked) on line ${number}`,
          location: `line ${number}`,
        });
      }
    }
  };
  const stream = source.open({ start: 0, end: limit - 1 });
  try {
    for await (const chunk of stream) {
      // Only the new text is searched for line ends, so a long line costs its length once.
      const lines = decoder.decode(chunk as Buffer, { stream: true }).split("\n");
      const last = lines.pop() ?? "";
      for (const [index, text] of lines.entries()) {
        scanLine(index === 0 ? pending + text : text, line++);
        if (index === 0) pending = "";
      }
      pending += last;
      while (pending.length > MAX_LINE_BYTES) {
        scanLine(pending.slice(0, MAX_LINE_BYTES), line);
        pending = pending.slice(MAX_LINE_BYTES);
      }
      if (findings.length >= MAX_FINDINGS) break;
    }
  } finally {
    stream.destroy();
  }
  pending += decoder.decode();
  if (pending.length > 0) scanLine(pending, line);
  return findings;
}
