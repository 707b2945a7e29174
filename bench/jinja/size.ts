/**
 * Where the bytes of @modelhub/jinja's bundle are: the bundle bench:jinja measures (src/index.ts, esbuild
 * minify, esm, platform neutral, gzip -9), split by source module.
 * - min: the module's minified bytes (esbuild metafile);
 * - gz: its marginal gzipped bytes, gzip(bundle) - gzip(bundle without that module's output), with the
 *   output attributed to modules through the source map (the column sums more than the total: modules
 *   share gzip context);
 * - and the gzipped size of the code alone, with the text of every string, template and regex literal
 *   emptied: what no rewording of messages could go below.
 * Run: npm run bench:jinja-size -w bench
 */
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import ts from "typescript";

const entry = fileURLToPath(new URL("../../packages/jinja/src/index.ts", import.meta.url));
const result = await build({
  entryPoints: [entry],
  bundle: true,
  minify: true,
  format: "esm",
  platform: "neutral",
  write: false,
  metafile: true,
  sourcemap: "external",
  outfile: "jinja-bundle.js",
  logLevel: "silent",
});
const code = result.outputFiles.find((f) => f.path.endsWith(".js"))!.text;
const map = JSON.parse(result.outputFiles.find((f) => f.path.endsWith(".map"))!.text) as {
  sources: string[];
  mappings: string;
};
const gz = (text: string) => gzipSync(text, { level: 9 }).length;
const short = (path: string) => path.replace(/^.*packages\/jinja\/src\//, "");

/** Source index of every output character (-1: none), decoded from the source map's VLQ mappings. */
function ownerOfEachChar(): Int32Array {
  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const lineStarts: number[] = [0];
  for (let i = code.indexOf("\n"); i >= 0; i = code.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  // Each segment: where it starts in the output and which source it maps to (-1 when unmapped).
  const segments: { at: number; source: number }[] = [];
  let source = 0;
  map.mappings.split(";").forEach((line, lineIndex) => {
    let column = 0;
    for (const segment of line.split(",")) {
      if (segment === "") continue;
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const ch of segment) {
        const digit = B64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >> 1) : value >> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0]!;
      if (fields.length > 1) source += fields[1]!;
      segments.push({ at: lineStarts[lineIndex]! + column, source: fields.length > 1 ? source : -1 });
    }
  });
  const owner = new Int32Array(code.length).fill(-1);
  segments.forEach((segment, i) => {
    owner.fill(segment.source, segment.at, segments[i + 1]?.at ?? code.length);
  });
  return owner;
}

const owner = ownerOfEachChar();
const total = gz(code);
const inputs = Object.values(result.metafile.outputs).find((o) => o.entryPoint)!.inputs;
const rows = map.sources.map((source, index) => {
  let rest = "";
  let start = 0;
  for (let i = 0; i <= code.length; i++) {
    const mine = i < code.length && owner[i] === index;
    if (mine && start >= 0) {
      rest += code.slice(start, i);
      start = -1;
    } else if (!mine && start < 0) start = i;
  }
  if (start >= 0) rest += code.slice(start);
  const metaKey = Object.keys(inputs).find((k) => source.endsWith(k.replace(/^(\.\.\/)+/, "")));
  return {
    module: short(source),
    min: metaKey ? inputs[metaKey]!.bytesInOutput : 0,
    gz: total - gz(rest),
  };
});
rows.sort((a, b) => b.gz - a.gz);

/** The bundle with the text of every string, template and regex literal emptied. */
function withoutLiterals(): string {
  const file = ts.createSourceFile("bundle.js", code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const ranges: [number, number][] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isRegularExpressionLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      ranges.push([node.getStart(file), node.end]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  ranges.sort((a, b) => a[0] - b[0]);
  let out = "";
  let pos = 0;
  for (const [start, end] of ranges) {
    if (start < pos) continue;
    out += `${code.slice(pos, start)}""`;
    pos = end;
  }
  return out + code.slice(pos);
}

const fmt = (n: number) => n.toLocaleString("en-US");
console.log(`bundle: ${fmt(code.length)} bytes minified, ${fmt(total)} bytes gzip -9`);
console.log(`code with every literal emptied: ${fmt(gz(withoutLiterals()))} bytes gzip -9\n`);
console.log("    gz     min  module");
for (const row of rows) {
  console.log(`${fmt(row.gz).padStart(6)}  ${fmt(row.min).padStart(6)}  ${row.module}`);
}
