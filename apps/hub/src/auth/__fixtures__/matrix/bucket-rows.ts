import { uploadToBucket } from "../../../buckets/__fixtures__/bucket-upload.js";
import {
  CALLERS,
  MANAGE_PRIVATE_REPO,
  READ_PRIVATE_REPO,
  type Row,
  succeedsWith,
  WRITE_PRIVATE_REPO,
} from "./callers.js";
import { fixture } from "./fixture.js";

/**
 * Storage buckets (buckets/buckets-routes.ts) on acme's private bucket, which holds one file: seen by acme's
 * members and the site admin only (everyone else meets a missing bucket), written by its writers, deleted by
 * its admins. Each caller creates and deletes buckets of its own (seeded by seedBuckets).
 */
const BUCKET = "acme/private-bucket";
const API = `/api/buckets/${BUCKET}`;

export async function seedBuckets(hubUrl: string): Promise<void> {
  const token = fixture.tokenOf.siteAdmin!;
  const create = async (id: string) => {
    const response = await fetch(`${hubUrl}/api/buckets/${id}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ visibility: "private" }),
    });
    if (!response.ok) throw new Error(`create ${id}: ${response.status} ${await response.text()}`);
  };
  await create(BUCKET);
  await uploadToBucket(hubUrl, token, BUCKET, "data/file.bin", 46);
  for (const caller of CALLERS) await create(`acme/doomed-bucket-${caller}`);
}

export const BUCKET_ROWS: Row[] = [
  {
    route: "POST /api/buckets/:namespace/:name",
    name: "create a private bucket in the organization",
    method: "POST",
    path: (caller) => `/api/buckets/acme/made-bucket-${caller}`,
    body: { visibility: "private" },
    writes: true,
    expected: { ...WRITE_PRIVATE_REPO, otherUser: 403, fineGrainedOutOfScope: 403 },
  },
  {
    route: "GET /api/buckets/:namespace/:name",
    name: "a private bucket's info",
    method: "GET",
    path: API,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "DELETE /api/buckets/:namespace/:name",
    name: "delete a private bucket",
    method: "DELETE",
    path: (caller) => `/api/buckets/acme/doomed-bucket-${caller}`,
    writes: true,
    expected: MANAGE_PRIVATE_REPO,
  },
  {
    route: "GET /api/buckets/:namespace/:name/xet-read-token",
    name: "a CAS read token for a private bucket",
    method: "GET",
    path: `${API}/xet-read-token`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/buckets/:namespace/:name/xet-write-token",
    name: "a CAS write token for a private bucket",
    method: "GET",
    path: `${API}/xet-write-token`,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    // Deleting a path the bucket does not have: refused in the batch's answer (422) once the caller may
    // write, so that nothing changes for the other rows.
    route: "POST /api/buckets/:namespace/:name/batch",
    name: "a batch on a private bucket",
    method: "POST",
    path: `${API}/batch`,
    rawBody: {
      contentType: "application/x-ndjson",
      text: () => JSON.stringify({ type: "deleteFile", path: "missing.bin" }),
    },
    expected: succeedsWith(WRITE_PRIVATE_REPO, 422),
  },
  {
    route: "GET /api/buckets/:namespace/:name/tree",
    name: "a private bucket's files",
    method: "GET",
    path: `${API}/tree?recursive=true`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/buckets/:namespace/:name/tree/:path{.+}",
    name: "a folder of a private bucket",
    method: "GET",
    path: `${API}/tree/data`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "POST /api/buckets/:namespace/:name/paths-info",
    name: "paths of a private bucket",
    method: "POST",
    path: `${API}/paths-info`,
    body: { paths: ["data/file.bin"] },
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /buckets/:namespace/:name/resolve/:path{.+}",
    name: "download a private bucket's file",
    method: "GET",
    path: `/buckets/${BUCKET}/resolve/data/file.bin`,
    expected: READ_PRIVATE_REPO,
  },
];
