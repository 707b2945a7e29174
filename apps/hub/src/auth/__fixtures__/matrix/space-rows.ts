import { READ_PRIVATE_REPO, type Row } from "./callers.js";
import { fixture, PRIVATE_REPO } from "./fixture.js";

/** Gives acme's private space (created static by seedMatrix) a page, so that its site link can be minted. */
export async function seedSpaceSite(hubUrl: string): Promise<void> {
  const response = await fetch(`${hubUrl}/api/spaces/${PRIVATE_REPO}/commit/main`, {
    method: "POST",
    headers: { Authorization: `Bearer ${fixture.tokenOf.siteAdmin}`, "Content-Type": "application/x-ndjson" },
    body: [
      { key: "header", value: { summary: "A page" } },
      {
        key: "file",
        value: { path: "index.html", content: Buffer.from("<h1>private</h1>").toString("base64"), encoding: "base64" },
      },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  });
  if (!response.ok) throw new Error(`seeding the space's page: ${response.status} ${await response.text()}`);
}

/** Static spaces' sites: the link to a private space's site is minted for those who may read its files. */
export const SPACE_ROWS: Row[] = [
  {
    route: "GET /api/{type}s/{id}/app-url",
    name: "the site link of a private static space",
    method: "GET",
    path: `/api/spaces/${PRIVATE_REPO}/app-url/main`,
    expected: READ_PRIVATE_REPO,
  },
];
