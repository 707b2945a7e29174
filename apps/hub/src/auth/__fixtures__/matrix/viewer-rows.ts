import { READ_PRIVATE_REPO, type Row, succeedsWith } from "./callers.js";

/**
 * The dataset viewer's API (viewer/viewer-routes.ts) on acme's private dataset (not converted: those who
 * may read its files hear 503 "not ready" where an answer needs the conversion). Access is /resolve's:
 * to anyone else the dataset does not exist.
 */
const DATASET = "acme/private-repo";
const SPLIT = `dataset=${DATASET}&config=default&split=train`;

const needsConversion = (endpoint: string, query: string): Row => ({
  route: `GET /datasets-server/${endpoint}`,
  name: `viewer ${endpoint} of a private dataset`,
  method: "GET",
  path: `/datasets-server/${endpoint}?${query}`,
  expected: succeedsWith(READ_PRIVATE_REPO, 503),
});

export const VIEWER_ROWS: Row[] = [
  {
    route: "GET /datasets-server/is-valid",
    name: "viewer is-valid of a private dataset",
    method: "GET",
    path: `/datasets-server/is-valid?dataset=${DATASET}`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /datasets-server/status",
    name: "viewer conversion status of a private dataset",
    method: "GET",
    path: `/datasets-server/status?dataset=${DATASET}`,
    expected: READ_PRIVATE_REPO,
  },
  needsConversion("splits", `dataset=${DATASET}`),
  needsConversion("first-rows", SPLIT),
  needsConversion("rows", `${SPLIT}&offset=0&length=10`),
  needsConversion("search", `${SPLIT}&query=a`),
  needsConversion("filter", `${SPLIT}&where=true`),
  needsConversion("statistics", SPLIT),
  {
    route: "POST /datasets-server/sql",
    name: "viewer SQL console over a private dataset",
    method: "POST",
    path: "/datasets-server/sql",
    body: { dataset: DATASET, sql: "SELECT 1" },
    expected: succeedsWith(READ_PRIVATE_REPO, 503),
  },
  needsConversion("parquet", `dataset=${DATASET}`),
  needsConversion("size", `dataset=${DATASET}`),
];
