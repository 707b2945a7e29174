/** Reads an SSE body into its `data:` payloads (test helper; clients have their own parser). */
export async function readSseData(response: Response): Promise<string[]> {
  const text = await response.text();
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.startsWith("data:"))
    .map((block) => block.replace(/^data: ?/, ""));
}

export const HUB_TOKEN = "hf_simtesttoken";

export function jsonHeaders(token = HUB_TOKEN, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, "content-type": "application/json", ...extra };
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = jsonHeaders()) {
  return fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
}
