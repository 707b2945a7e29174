/** An HTTP/1.1 answer as a test's caller reads it off a raw connection. */
export interface RawAnswer {
  status: number;
  /** The status line and headers as sent (names in the case the server wrote them). */
  rawHead: string;
  /** Header values by lower-case name. */
  headers: Record<string, string>;
  body: string;
}

/**
 * The whole answer at the start of `text` (a connection's bytes as latin1) and where it ends, or undefined
 * while it is not whole. Framed by Content-Length or chunks, as the hub frames its answers; no trailers or
 * chunk extensions (a test's reader, not a general parser).
 */
export function readAnswer(text: string): { answer: RawAnswer; end: number } | undefined {
  const headEnd = text.indexOf("\r\n\r\n");
  if (headEnd === -1) return undefined;
  const rawHead = text.slice(0, headEnd);
  const headers: Record<string, string> = {};
  for (const line of rawHead.split("\r\n").slice(1)) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = readBody(text, headEnd + 4, headers["content-length"]);
  if (!body) return undefined;
  return { answer: { status: Number(rawHead.split(" ")[1]), rawHead, headers, body: body.text }, end: body.end };
}

/** Every whole answer in `text`, in order. */
export function readAnswers(text: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  for (let rest = text, read = readAnswer(rest); read; read = readAnswer(rest)) {
    answers.push(read.answer);
    rest = rest.slice(read.end);
  }
  return answers;
}

function readBody(text: string, from: number, length: string | undefined) {
  if (length !== undefined) {
    const end = from + Number(length);
    return end <= text.length ? { text: text.slice(from, end), end } : undefined;
  }
  let body = "";
  for (let at = from; ; ) {
    const sizeEnd = text.indexOf("\r\n", at);
    if (sizeEnd === -1) return undefined;
    const size = Number.parseInt(text.slice(at, sizeEnd), 16);
    const end = sizeEnd + 2 + size + 2;
    if (end > text.length) return undefined;
    body += text.slice(sizeEnd + 2, sizeEnd + 2 + size);
    at = end;
    if (size === 0) return { text: body, end };
  }
}
