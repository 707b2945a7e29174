/**
 * The pickle opcodes of protocols 0-5 (as Python's pickletools documents them) and how each one's argument
 * is laid out in the stream. Nothing here executes anything: the reader only decodes arguments.
 */

export type OpcodeArgument =
  | "none"
  | "uint1"
  | "uint2"
  | "int4"
  | "uint4"
  | "uint8"
  | "float8"
  /** A "\n"-terminated line (INT, LONG, FLOAT, STRING, UNICODE, GET, PUT, PERSID). */
  | "line"
  /** Two lines: module and name (GLOBAL, INST). */
  | "twoLines"
  /** Length-prefixed payloads: the prefix width and whether the length is signed. */
  | "bytes1"
  | "bytes4"
  | "bytes4signed"
  | "bytes8";

export interface Opcode {
  name: string;
  argument: OpcodeArgument;
}

const table: Array<[string, string, OpcodeArgument]> = [
  ["(", "MARK", "none"],
  [".", "STOP", "none"],
  ["0", "POP", "none"],
  ["1", "POP_MARK", "none"],
  ["2", "DUP", "none"],
  ["F", "FLOAT", "line"],
  ["I", "INT", "line"],
  ["J", "BININT", "int4"],
  ["K", "BININT1", "uint1"],
  ["L", "LONG", "line"],
  ["M", "BININT2", "uint2"],
  ["N", "NONE", "none"],
  ["P", "PERSID", "line"],
  ["Q", "BINPERSID", "none"],
  ["R", "REDUCE", "none"],
  ["S", "STRING", "line"],
  ["T", "BINSTRING", "bytes4signed"],
  ["U", "SHORT_BINSTRING", "bytes1"],
  ["V", "UNICODE", "line"],
  ["X", "BINUNICODE", "bytes4"],
  ["a", "APPEND", "none"],
  ["b", "BUILD", "none"],
  ["c", "GLOBAL", "twoLines"],
  ["d", "DICT", "none"],
  ["}", "EMPTY_DICT", "none"],
  ["e", "APPENDS", "none"],
  ["g", "GET", "line"],
  ["h", "BINGET", "uint1"],
  ["i", "INST", "twoLines"],
  ["j", "LONG_BINGET", "uint4"],
  ["l", "LIST", "none"],
  ["]", "EMPTY_LIST", "none"],
  ["o", "OBJ", "none"],
  ["p", "PUT", "line"],
  ["q", "BINPUT", "uint1"],
  ["r", "LONG_BINPUT", "uint4"],
  ["s", "SETITEM", "none"],
  ["t", "TUPLE", "none"],
  [")", "EMPTY_TUPLE", "none"],
  ["u", "SETITEMS", "none"],
  ["G", "BINFLOAT", "float8"],
  ["\x80", "PROTO", "uint1"],
  ["\x81", "NEWOBJ", "none"],
  ["\x82", "EXT1", "uint1"],
  ["\x83", "EXT2", "uint2"],
  ["\x84", "EXT4", "int4"],
  ["\x85", "TUPLE1", "none"],
  ["\x86", "TUPLE2", "none"],
  ["\x87", "TUPLE3", "none"],
  ["\x88", "NEWTRUE", "none"],
  ["\x89", "NEWFALSE", "none"],
  ["\x8a", "LONG1", "bytes1"],
  ["\x8b", "LONG4", "bytes4signed"],
  ["B", "BINBYTES", "bytes4"],
  ["C", "SHORT_BINBYTES", "bytes1"],
  ["\x8c", "SHORT_BINUNICODE", "bytes1"],
  ["\x8d", "BINUNICODE8", "bytes8"],
  ["\x8e", "BINBYTES8", "bytes8"],
  ["\x8f", "EMPTY_SET", "none"],
  ["\x90", "ADDITEMS", "none"],
  ["\x91", "FROZENSET", "none"],
  ["\x92", "NEWOBJ_EX", "none"],
  ["\x93", "STACK_GLOBAL", "none"],
  ["\x94", "MEMOIZE", "none"],
  ["\x95", "FRAME", "uint8"],
  ["\x96", "BYTEARRAY8", "bytes8"],
  ["\x97", "NEXT_BUFFER", "none"],
  ["\x98", "READONLY_BUFFER", "none"],
];

/** Opcodes by their byte; undefined for a byte that is no opcode (the stream is malformed there). */
export const OPCODES: ReadonlyArray<Opcode | undefined> = (() => {
  const byCode: Array<Opcode | undefined> = new Array(256).fill(undefined);
  for (const [code, name, argument] of table) byCode[code.charCodeAt(0)] = { name, argument };
  return byCode;
})();

/** Fixed argument widths; lines and payloads are read separately. */
export const FIXED_WIDTH: Partial<Record<OpcodeArgument, number>> = {
  none: 0,
  uint1: 1,
  uint2: 2,
  int4: 4,
  uint4: 4,
  uint8: 8,
  float8: 8,
};

/** The highest pickle protocol Python writes and reads (3.8+). */
export const HIGHEST_PROTOCOL = 5;
