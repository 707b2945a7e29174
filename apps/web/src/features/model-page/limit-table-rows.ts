import type { Element, ElementContent, Root } from "hast";

/** Rows of a card's table that are rendered; a card may hold a table of 100,000 rows. */
export const MAX_TABLE_ROWS = 500;

const isElement = (node: ElementContent | Root["children"][number], tag?: string): node is Element =>
  node.type === "element" && (tag === undefined || node.tagName === tag);

/**
 * A rehype plugin (run after sanitizing): cuts each table's body to its first `maxRows` rows and puts a note
 * after the table. React renders a 500-row table in about 100 ms on this project's loaded test machine; a
 * hundred thousand rows would hold the page for seconds. Walks without recursion: cards may nest thousands deep.
 */
export function rehypeLimitTableRows(maxRows = MAX_TABLE_ROWS) {
  return (tree: Root) => {
    const parents: Array<Root | Element> = [tree];
    for (let parent = parents.pop(); parent; parent = parents.pop()) {
      const children = parent.children as ElementContent[];
      for (let index = 0; index < children.length; index++) {
        const child = children[index]!;
        if (!isElement(child)) continue;
        if (child.tagName === "table" && cutTable(child, maxRows)) {
          children.splice(index + 1, 0, cutNote(maxRows));
          index++;
        }
        parents.push(child);
      }
    }
  };
}

function cutTable(table: Element, maxRows: number): boolean {
  const body = table.children.find((child) => isElement(child, "tbody")) as Element | undefined;
  if (!body) return false;
  const rows = body.children.filter((child) => isElement(child, "tr"));
  if (rows.length <= maxRows) return false;
  body.children = rows.slice(0, maxRows);
  return true;
}

function cutNote(maxRows: number): Element {
  return {
    type: "element",
    tagName: "p",
    properties: { dataTableCut: "" },
    children: [
      {
        type: "text",
        value: `Only the first ${maxRows.toLocaleString("en")} rows of this table are shown.`,
      },
    ],
  };
}

const DELIMITER_ROW = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Drops the source lines of each GFM table past its first `maxRows + 1` rows (one more than is shown, so the
 * rendered table still says it was cut), leaving fenced code alone. Parsing is what costs: a 3,000-row table
 * takes the parser seconds on a loaded machine, 500 rows a fraction of that.
 */
export function cutLongTables(source: string, maxRows = MAX_TABLE_ROWS): string {
  const lines = source.split("\n");
  const kept: string[] = [];
  let fence: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    kept.push(line);
    const fenceMark = FENCE.exec(line)?.[1];
    if (fenceMark) {
      if (!fence) fence = fenceMark;
      else if (fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = undefined;
      continue;
    }
    if (fence || !line.includes("|") || !DELIMITER_ROW.test(lines[index + 1] ?? "")) continue;
    // A header row and its delimiter row: the table's body runs to the first blank line.
    kept.push(lines[++index]!);
    let rows = 0;
    while (index + 1 < lines.length && lines[index + 1]!.trim() !== "") {
      index++;
      if (rows++ <= maxRows) kept.push(lines[index]!);
    }
  }
  return kept.join("\n");
}
