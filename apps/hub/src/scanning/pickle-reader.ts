import { ByteReader } from "./byte-reader.js";
import { FIXED_WIDTH, HIGHEST_PROTOCOL, OPCODES, type Opcode } from "./pickle-opcodes.js";
import type { ScanFinding } from "./scan-report.js";
import { isNestedPickleLoader, UNRESOLVABLE_MODULE } from "./scan-rules.js";

/**
 * Reads pickle streams opcode by opcode WITHOUT executing anything and collects every global they can import
 * (GLOBAL, INST, STACK_GLOBAL with its operands resolved through a model of the stack and the memo, EXT codes),
 * following nested pickles (bytes given to pickle.loads, several pickles one after another, joblib's object
 * arrays). Memory is bounded: large payloads are skipped, only small values (strings, small tuples and dicts)
 * are modelled, and every structure has a limit. Malformed input gives an error with its byte offset, never
 * a throw.
 */

/** One imported global; `module` is UNRESOLVABLE_MODULE when its operands could not be read as strings. */
export interface RawGlobal {
  module: string;
  name: string;
}

export interface PickleReadOptions {
  /**
   * Read as joblib.load does: numpy arrays' bytes follow each NumpyArrayWrapper BUILD outside the pickle
   * opcodes (raw data, or a whole pickle for object arrays) and are skipped or scanned accordingly.
   */
  joblib?: boolean;
  /** Stop after this many complete pickles (legacy torch files: the rest is raw storage data). */
  maxPickles?: number;
  /** Where in the file this stream is, for findings ("archive/data.pkl"). */
  location?: string;
}

export interface PickleReadResult {
  globals: RawGlobal[];
  findings: ScanFinding[];
  /** Complete pickles read (up to their STOP). */
  pickles: number;
  /** Set when a pickle was malformed or truncated: what and at which byte. */
  error?: string;
  /** How many NumpyArrayWrapper objects were built: the stream is laid out as joblib writes it. */
  joblibArrays: number;
  /** The value the last complete pickle returned, as modelled (legacy torch storages need it). */
  lastValue?: PickleValue;
}

/** The small model of a value on the unpickler's stack; anything not needed is "other". */
export type PickleValue =
  | { t: "str"; s?: string }
  | { t: "bytes"; data?: Buffer }
  | { t: "int"; n: number }
  | { t: "bool" }
  | { t: "none" }
  | { t: "global"; module: string; name: string }
  | { t: "tuple"; items?: PickleValue[] }
  | { t: "dict"; entries?: Map<string, PickleValue> }
  | { t: "obj"; callable: PickleValue; args?: PickleValue; state?: PickleValue }
  | { t: "persistent" }
  | { t: "missing" }
  | { t: "other" };

const OTHER: PickleValue = { t: "other" };
const MAX_STACK = 100_000;
const MAX_SPARSE_MEMO_KEYS = 1_000_000;
const MAX_MEMO_KEPT_BYTES = 64 << 20;
/** Payloads up to this size are kept without charging the budget: module names and other short strings. */
const SMALL_PAYLOAD = 256;
const MAX_LINE = 1 << 20;
const MAX_RETAINED_PAYLOAD = 16 << 20;
const RETAINED_BUDGET = 64 << 20;
const MAX_STRING_KEPT = 1 << 20;
const MAX_TUPLE_ITEMS = 32;
const MAX_DICT_ENTRIES = 64;
const MAX_DEPTH = 8;
const MAX_GLOBALS = 10_000;
const MAX_FINDINGS = 100;

class PickleError extends Error {}

/** The state shared by a stream and the pickles nested in it: globals, findings and the memory budget. */
class ScanState {
  readonly globals: RawGlobal[] = [];
  private readonly seen = new Set<string>();
  readonly findings: ScanFinding[] = [];
  private readonly findingKeys = new Set<string>();
  retainedBudget = RETAINED_BUDGET;
  joblibArrays = 0;

  addGlobal(module: string, name: string): void {
    const key = `${module}\u0000${name}`;
    if (this.seen.has(key)) return;
    if (this.globals.length >= MAX_GLOBALS)
      throw new PickleError(`more than ${MAX_GLOBALS} distinct globals`);
    this.seen.add(key);
    this.globals.push({ module, name });
  }

  addFinding(finding: ScanFinding): void {
    const key = `${finding.message}\u0000${finding.location ?? ""}`;
    if (this.findingKeys.has(key) || this.findings.length >= MAX_FINDINGS) return;
    this.findingKeys.add(key);
    this.findings.push(finding);
  }
}

/** Reads every pickle in `reader` until its end (or `maxPickles`), with nested pickles. Never throws. */
export async function readPickleStream(
  reader: ByteReader,
  options: PickleReadOptions = {},
): Promise<PickleReadResult> {
  const state = new ScanState();
  const outcome = await readStreamInto(reader, state, options, 0);
  return { ...outcome, globals: state.globals, findings: state.findings, joblibArrays: state.joblibArrays };
}

export async function readPickleBuffer(
  data: Buffer,
  options: PickleReadOptions = {},
): Promise<PickleReadResult> {
  return readPickleStream(ByteReader.fromBuffer(data), options);
}

async function readStreamInto(
  reader: ByteReader,
  state: ScanState,
  options: PickleReadOptions,
  depth: number,
): Promise<{ pickles: number; error?: string; lastValue?: PickleValue }> {
  let pickles = 0;
  let lastValue: PickleValue | undefined;
  try {
    while (options.maxPickles === undefined || pickles < options.maxPickles) {
      if (await reader.atEnd()) {
        if (pickles === 0) return { pickles, error: "empty: no pickle opcode at byte 0" };
        break;
      }
      lastValue = await new PickleMachine(reader, state, options, depth).run();
      pickles++;
    }
    return { pickles, lastValue };
  } catch (error) {
    const message = error instanceof PickleError ? error.message : `unexpected: ${(error as Error).message}`;
    return { pickles, error: message, lastValue };
  }
}

/** One pickle, from its first opcode to STOP: the stack, the mark stack and the memo of one Unpickler. */
class PickleMachine {
  private readonly stack: PickleValue[] = [];
  private readonly marks: number[] = [];
  private readonly memo = new Map<number, PickleValue>();
  /** Memo keys written so far when they are exactly 0..n-1 (what every real pickler writes). */
  private denseMemoCount = 0;
  /** All memo keys once a pickle writes them out of order (bounded). */
  private sparseMemoKeys: Set<number> | undefined;
  private memoKeptBytes = 0;
  private opcodeOffset = 0;
  private opcode: Opcode | undefined;

  constructor(
    private readonly reader: ByteReader,
    private readonly state: ScanState,
    private readonly options: PickleReadOptions,
    private readonly depth: number,
  ) {}

  private fail(message: string): never {
    throw new PickleError(
      `${message} at byte ${this.opcodeOffset}${this.opcode ? ` (${this.opcode.name})` : ""}`,
    );
  }

  async run(): Promise<PickleValue> {
    const reader = this.reader;
    for (;;) {
      this.opcodeOffset = reader.offset;
      this.opcode = undefined;
      if (!reader.has(9) && !(await reader.ensure(1))) this.fail("truncated pickle: no STOP opcode");
      const code = reader.byte();
      const opcode = OPCODES[code];
      if (!opcode) this.fail(`unknown opcode 0x${code.toString(16).padStart(2, "0")}`);
      this.opcode = opcode;
      const width = FIXED_WIDTH[opcode.argument];
      let fixed = 0;
      if (width !== undefined && width > 0) {
        if (!reader.has(width) && !(await reader.ensure(width))) this.fail("truncated argument");
        fixed = readFixed(reader, opcode.argument, width);
      }
      // Most opcodes are handled without awaiting (a promise per opcode would cost most of the time).
      const fast = this.stepSync(opcode.name, fixed);
      if (fast === false) {
        const result = await this.step(opcode.name);
        if (result) return result.value;
      } else if (fast !== true) {
        return fast.value;
      }
      if (this.stack.length + this.marks.length > MAX_STACK) this.fail(`stack deeper than ${MAX_STACK}`);
    }
  }

  private push(value: PickleValue): void {
    this.stack.push(value);
  }

  private pop(): PickleValue {
    const base = this.marks.length > 0 ? this.marks[this.marks.length - 1]! : 0;
    if (this.stack.length <= base) this.fail("stack underflow");
    return this.stack.pop()!;
  }

  private top(): PickleValue {
    const base = this.marks.length > 0 ? this.marks[this.marks.length - 1]! : 0;
    if (this.stack.length <= base) this.fail("stack underflow");
    return this.stack[this.stack.length - 1]!;
  }

  private popMark(): PickleValue[] {
    const mark = this.marks.pop();
    if (mark === undefined) this.fail("no MARK on the stack");
    return this.stack.splice(mark);
  }

  private async line(): Promise<string | undefined> {
    const read = await this.reader.readLine(MAX_LINE);
    if (!read) this.fail("truncated line argument");
    return read.line ? read.line.toString("latin1") : undefined;
  }

  private async payload(length: number, keep: boolean): Promise<Buffer | undefined> {
    if (length < 0) this.fail("negative length");
    const small = length <= SMALL_PAYLOAD;
    const retain = keep && (small || (length <= MAX_RETAINED_PAYLOAD && length <= this.state.retainedBudget));
    if (!retain) {
      if (!(await this.reader.skip(length))) this.fail(`truncated payload of ${length} bytes`);
      return undefined;
    }
    if (!(await this.reader.ensure(length))) this.fail(`truncated payload of ${length} bytes`);
    if (!small) this.state.retainedBudget -= length;
    return Buffer.from(this.reader.take(length));
  }

  private async lengthPrefix(argument: string): Promise<number> {
    const width = argument === "bytes1" ? 1 : argument === "bytes8" ? 8 : 4;
    if (!(await this.reader.ensure(width))) this.fail("truncated length");
    const raw = this.reader.take(width);
    if (width === 1) return raw[0]!;
    if (width === 4) return argument === "bytes4signed" ? raw.readInt32LE(0) : raw.readUInt32LE(0);
    const big = raw.readBigUInt64LE(0);
    if (big > BigInt(Number.MAX_SAFE_INTEGER)) this.fail("length over 2^53");
    return Number(big);
  }

  private memoPut(index: number): void {
    if (this.sparseMemoKeys === undefined) {
      if (index === this.denseMemoCount) this.denseMemoCount++;
      else if (index > this.denseMemoCount) {
        this.sparseMemoKeys = new Set();
        for (let i = 0; i < this.denseMemoCount; i++) this.sparseMemoKeys.add(i);
      }
    }
    if (this.sparseMemoKeys) {
      this.sparseMemoKeys.add(index);
      if (this.sparseMemoKeys.size > MAX_SPARSE_MEMO_KEYS) this.fail("memo over its limit");
    }
    const value = this.top();
    const cost = keptCost(value);
    if (cost === undefined) {
      this.memo.delete(index);
      return;
    }
    this.memoKeptBytes += cost;
    if (this.memoKeptBytes > MAX_MEMO_KEPT_BYTES) this.fail("memo over its limit");
    this.memo.set(index, value);
  }

  private memoSize(): number {
    return this.sparseMemoKeys ? this.sparseMemoKeys.size : this.denseMemoCount;
  }

  private memoGet(index: number): PickleValue {
    const known = this.sparseMemoKeys ? this.sparseMemoKeys.has(index) : index < this.denseMemoCount;
    if (!known) return { t: "missing" };
    return this.memo.get(index) ?? OTHER;
  }

  private recordGlobal(module: string, name: string): PickleValue {
    this.state.addGlobal(module, name);
    return { t: "global", module, name };
  }

  private finding(message: string, safety: ScanFinding["safety"] = "suspicious"): void {
    this.state.addFinding({
      scanner: "pickle",
      safety,
      message,
      ...(this.options.location ? { location: this.options.location } : {}),
    });
  }

  /**
   * The opcodes that never read beyond their fixed argument, handled without awaiting (a promise per opcode
   * would cost most of the time): true when done, `{value}` at STOP, false for the others (`step`).
   */
  private stepSync(name: string, arg: number): boolean | { value: PickleValue } {
    switch (name) {
      case "PROTO":
        if (arg > HIGHEST_PROTOCOL) this.fail(`unsupported pickle protocol ${arg}`);
        return true;
      case "FRAME":
        // Frames only group opcodes for buffering; the opcodes inside are read as they come.
        return true;
      case "STOP":
        return { value: this.pop() };
      case "MARK":
        this.marks.push(this.stack.length);
        return true;
      case "POP":
        if (this.marks.length > 0 && this.stack.length === this.marks[this.marks.length - 1])
          this.marks.pop();
        else this.pop();
        return true;
      case "POP_MARK":
        this.popMark();
        return true;
      case "DUP":
        this.push(this.top());
        return true;
      case "NONE":
        this.push({ t: "none" });
        return true;
      case "NEWTRUE":
      case "NEWFALSE":
        this.push({ t: "bool" });
        return true;
      case "BININT":
      case "BININT1":
      case "BININT2":
        this.push({ t: "int", n: arg });
        return true;
      case "BINFLOAT":
        this.push(OTHER);
        return true;
      case "NEXT_BUFFER":
        this.push(OTHER);
        return true;
      case "READONLY_BUFFER":
        this.top();
        return true;
      case "EMPTY_LIST":
      case "EMPTY_SET":
        this.push(OTHER);
        return true;
      case "EMPTY_DICT":
        this.push({ t: "dict", entries: new Map() });
        return true;
      case "EMPTY_TUPLE":
        this.push({ t: "tuple", items: [] });
        return true;
      case "LIST":
      case "FROZENSET":
        this.popMark();
        this.push(OTHER);
        return true;
      case "TUPLE": {
        const items = this.popMark();
        this.push({ t: "tuple", items: items.length <= MAX_TUPLE_ITEMS ? items : undefined });
        return true;
      }
      case "TUPLE1":
      case "TUPLE2":
      case "TUPLE3": {
        const count = name === "TUPLE1" ? 1 : name === "TUPLE2" ? 2 : 3;
        const items: PickleValue[] = [];
        for (let i = 0; i < count; i++) items.unshift(this.pop());
        this.push({ t: "tuple", items });
        return true;
      }
      case "DICT": {
        const items = this.popMark();
        const dict: PickleValue = { t: "dict", entries: new Map() };
        this.setItems(dict, items);
        this.push(dict);
        return true;
      }
      case "APPEND":
        this.pop();
        this.top();
        return true;
      case "APPENDS":
      case "ADDITEMS":
        this.popMark();
        this.top();
        return true;
      case "SETITEM": {
        const value = this.pop();
        const key = this.pop();
        this.setItems(this.top(), [key, value]);
        return true;
      }
      case "SETITEMS": {
        const items = this.popMark();
        this.setItems(this.top(), items);
        return true;
      }
      case "BINGET":
      case "LONG_BINGET":
        this.push(this.memoGet(arg));
        return true;
      case "BINPUT":
      case "LONG_BINPUT":
        this.memoPut(arg);
        return true;
      case "MEMOIZE":
        this.memoPut(this.memoSize());
        return true;
      case "STACK_GLOBAL": {
        const global = this.pop();
        const module = this.pop();
        if (module.t === "str" && global.t === "str" && module.s !== undefined && global.s !== undefined) {
          this.push(this.recordGlobal(module.s, global.s));
        } else {
          this.push(
            this.recordGlobal(
              UNRESOLVABLE_MODULE,
              `STACK_GLOBAL operands ${describe(module)}, ${describe(global)}`,
            ),
          );
        }
        return true;
      }
      case "EXT1":
      case "EXT2":
      case "EXT4":
        // The extension registry (copyreg) maps codes to globals the loading program registered: unknowable here.
        this.push(this.recordGlobal(UNRESOLVABLE_MODULE, `extension code ${arg}`));
        return true;
      case "BINPERSID":
        this.pop();
        this.push({ t: "persistent" });
        return true;
      default:
        return false;
    }
  }

  /** The opcodes that read lines or payloads or may read a nested pickle (awaited). */
  private async step(name: string): Promise<{ value: PickleValue } | undefined> {
    const reader = this.reader;
    switch (name) {
      case "INT":
      case "LONG":
      case "FLOAT": {
        const text = await this.line();
        const digits = text?.replace(/L$/, "").trim();
        if (name !== "FLOAT" && digits !== undefined && /^[+-]?\d+$/.test(digits)) {
          const n = Number(digits);
          this.push(Number.isSafeInteger(n) ? { t: "int", n } : OTHER);
        } else if (name === "FLOAT" || text === undefined) this.push(OTHER);
        else this.fail("invalid integer line");
        return;
      }
      case "LONG1":
      case "LONG4": {
        const length = await this.lengthPrefix(name === "LONG1" ? "bytes1" : "bytes4signed");
        const data = await this.payload(length, length <= 6);
        this.push(data ? { t: "int", n: littleEndianSigned(data) } : OTHER);
        return;
      }
      case "STRING": {
        const text = await this.line();
        this.push({
          t: "str",
          s: text === undefined ? undefined : decodeQuotedString(text, () => this.fail("bad STRING")),
        });
        return;
      }
      case "UNICODE": {
        const text = await this.line();
        this.push({ t: "str", s: text === undefined ? undefined : decodeRawUnicodeEscape(text) });
        return;
      }
      case "BINSTRING":
      case "SHORT_BINSTRING":
      case "BINUNICODE":
      case "SHORT_BINUNICODE":
      case "BINUNICODE8": {
        const length = await this.lengthPrefix(argumentOf(name));
        const data = await this.payload(length, length <= MAX_STRING_KEPT);
        const utf8 = name.includes("UNICODE");
        this.push({ t: "str", s: data?.toString(utf8 ? "utf8" : "latin1") });
        return;
      }
      case "BINBYTES":
      case "SHORT_BINBYTES":
      case "BINBYTES8":
      case "BYTEARRAY8": {
        const length = await this.lengthPrefix(argumentOf(name));
        this.push({ t: "bytes", data: await this.payload(length, true) });
        return;
      }
      case "GET":
      case "PUT": {
        const text = await this.line();
        if (text === undefined || !/^\d+$/.test(text.trim())) this.fail("invalid memo index");
        const index = Number(text.trim());
        if (name === "GET") this.push(this.memoGet(index));
        else this.memoPut(index);
        return;
      }
      case "GLOBAL": {
        const module = await this.line();
        const global = await this.line();
        this.push(this.globalFromLines(module, global));
        return;
      }
      case "INST": {
        const module = await this.line();
        const global = await this.line();
        const callable = this.globalFromLines(module, global);
        const args = this.popMark();
        this.push({
          t: "obj",
          callable,
          args: { t: "tuple", items: args.length <= MAX_TUPLE_ITEMS ? args : undefined },
        });
        return;
      }
      case "PERSID":
        await this.line();
        this.push({ t: "persistent" });
        return;
      case "REDUCE": {
        const args = this.pop();
        const callable = this.pop();
        this.push(await this.call(callable, args));
        return;
      }
      case "NEWOBJ": {
        const args = this.pop();
        const cls = this.pop();
        this.push(await this.call(cls, args));
        return;
      }
      case "NEWOBJ_EX": {
        this.pop();
        const args = this.pop();
        const cls = this.pop();
        this.push(await this.call(cls, args));
        return;
      }
      case "OBJ": {
        const items = this.popMark();
        const cls = items.shift();
        if (!cls) this.fail("OBJ without a class");
        this.push(
          await this.call(cls, { t: "tuple", items: items.length <= MAX_TUPLE_ITEMS ? items : undefined }),
        );
        return;
      }
      case "BUILD": {
        const buildState = this.pop();
        const target = this.top();
        if (target.t === "obj") target.state = buildState;
        if (isGlobal(target, "joblib.numpy_pickle", "NumpyArrayWrapper")) {
          this.state.joblibArrays++;
          if (this.options.joblib) await this.skipJoblibArray(buildState, reader);
        }
        return;
      }
      default:
        this.fail("unhandled opcode");
    }
  }

  private globalFromLines(module: string | undefined, name: string | undefined): PickleValue {
    if (module === undefined || name === undefined) {
      return this.recordGlobal(UNRESOLVABLE_MODULE, "GLOBAL line over the length limit");
    }
    return this.recordGlobal(
      Buffer.from(module, "latin1").toString("utf8"),
      Buffer.from(name, "latin1").toString("utf8"),
    );
  }

  private setItems(target: PickleValue, items: PickleValue[]): void {
    if (items.length % 2 !== 0) this.fail("odd number of items for a dict");
    if (target.t !== "dict" || !target.entries) return;
    for (let i = 0; i < items.length; i += 2) {
      const key = items[i]!;
      if (key.t !== "str" || key.s === undefined || target.entries.size >= MAX_DICT_ENTRIES) continue;
      target.entries.set(key.s, items[i + 1]!);
    }
  }

  /** A call the unpickler makes (REDUCE, NEWOBJ, OBJ, INST): the result, plus findings and nested pickles. */
  private async call(callable: PickleValue, args: PickleValue): Promise<PickleValue> {
    if (callable.t === "obj" || callable.t === "missing") {
      this.finding("calls an object another call returned (a gadget chain: getattr, attrgetter...)");
    } else if (callable.t === "persistent") {
      this.finding("calls an object the loading program supplies by persistent id");
    }
    const first = args.t === "tuple" ? args.items?.[0] : undefined;
    if (callable.t === "global") {
      if (isGlobal(callable, "_codecs", "encode") && first?.t === "str" && first.s !== undefined) {
        // Python 3 writes bytes as _codecs.encode(text, "latin1") at protocols 0-2.
        return { t: "bytes", data: Buffer.from(first.s, "latin1") };
      }
      if (isNestedPickleLoader(callable.module, callable.name)) {
        const data =
          first?.t === "bytes"
            ? first.data
            : first?.t === "str" && first.s !== undefined
              ? Buffer.from(first.s, "latin1")
              : undefined;
        if (data) await this.readNested(data, `${callable.module}.${callable.name}`);
        else
          this.finding(
            `${callable.module}.${callable.name} loads a pickle the scanner cannot see`,
            "dangerous",
          );
      }
    }
    return { t: "obj", callable, args };
  }

  private async readNested(data: Buffer, via: string): Promise<void> {
    if (this.depth + 1 > MAX_DEPTH) this.fail(`pickles nested deeper than ${MAX_DEPTH}`);
    const where = `nested pickle given to ${via} at byte ${this.opcodeOffset}`;
    const nested = await readStreamInto(
      ByteReader.fromBuffer(data),
      this.state,
      { location: where },
      this.depth + 1,
    );
    if (nested.error) this.finding(`${where} is malformed: ${nested.error}`);
  }

  /**
   * joblib writes each numpy array right after its NumpyArrayWrapper's BUILD: an object array as a whole
   * pickle; any other array as one padding-length byte, that much padding (when the wrapper has
   * numpy_array_alignment_bytes), then shape × itemsize raw bytes.
   */
  private async skipJoblibArray(wrapperState: PickleValue, reader: ByteReader): Promise<void> {
    const entries = wrapperState.t === "dict" ? wrapperState.entries : undefined;
    const layout = entries ? joblibArrayLayout(entries) : undefined;
    if (!layout) this.fail("joblib array wrapper whose dtype or shape cannot be read");
    if (layout.objectArray) {
      if (this.depth + 1 > MAX_DEPTH) this.fail(`pickles nested deeper than ${MAX_DEPTH}`);
      const nested = await readStreamInto(
        reader,
        this.state,
        { ...this.options, maxPickles: 1 },
        this.depth + 1,
      );
      if (nested.error) throw new PickleError(nested.error);
      return;
    }
    if (layout.aligned) {
      if (!(await reader.ensure(1))) this.fail("truncated joblib array padding");
      const padding = reader.byte();
      if (!(await reader.skip(padding))) this.fail("truncated joblib array padding");
    }
    if (!(await reader.skip(layout.byteLength)))
      this.fail(`truncated joblib array of ${layout.byteLength} bytes`);
  }
}

function readFixed(reader: ByteReader, argument: string, width: number): number {
  const raw = reader.take(width);
  switch (argument) {
    case "uint1":
      return raw[0]!;
    case "uint2":
      return raw.readUInt16LE(0);
    case "int4":
      return raw.readInt32LE(0);
    case "uint4":
      return raw.readUInt32LE(0);
    case "uint8":
      return Number(raw.readBigUInt64LE(0));
    default:
      return 0;
  }
}

function argumentOf(name: string): string {
  if (name.startsWith("SHORT_")) return "bytes1";
  if (name.endsWith("8")) return "bytes8";
  if (name === "BINSTRING") return "bytes4signed";
  return "bytes4";
}

function littleEndianSigned(data: Buffer): number {
  if (data.length === 0) return 0;
  let n = 0;
  for (let i = data.length - 1; i >= 0; i--) n = n * 256 + data[i]!;
  if (data[data.length - 1]! & 0x80) n -= 2 ** (8 * data.length);
  return n;
}

/**
 * What keeping a memo value costs, or undefined for values the memo does not keep: only those a later
 * STACK_GLOBAL, nested pickle or joblib array can need (strings, bytes, ints, globals, numpy dtypes).
 */
function keptCost(value: PickleValue): number | undefined {
  switch (value.t) {
    case "str":
      return 32 + (value.s?.length ?? 0);
    case "bytes":
      return 32 + (value.data?.length ?? 0);
    case "int":
    case "global":
    case "missing":
    case "persistent":
      return 32;
    case "obj":
      return isGlobal(value, "numpy", "dtype") ? 256 : undefined;
    default:
      return undefined;
  }
}

function isGlobal(value: PickleValue, module: string, name: string): boolean {
  const callable = value.t === "obj" ? value.callable : value;
  return callable.t === "global" && callable.module === module && callable.name === name;
}

function describe(value: PickleValue): string {
  if (value.t === "str")
    return value.s === undefined ? "a string over the length limit" : JSON.stringify(value.s);
  if (value.t === "missing") return "an unknown memo entry";
  return `a ${value.t === "obj" ? "call result" : value.t} value`;
}

/** Python's repr of a byte string, as protocol 0's STRING writes it. */
function decodeQuotedString(text: string, fail: () => never): string {
  const trimmed = text.trimEnd();
  const quote = trimmed[0];
  if ((quote !== "'" && quote !== '"') || trimmed.length < 2 || trimmed[trimmed.length - 1] !== quote) fail();
  const body = trimmed.slice(1, -1);
  return body.replace(/\\(x[0-9a-fA-F]{2}|[0-7]{1,3}|.)/g, (_, escaped: string) => {
    if (escaped[0] === "x") return String.fromCharCode(Number.parseInt(escaped.slice(1), 16));
    if (/^[0-7]/.test(escaped)) return String.fromCharCode(Number.parseInt(escaped, 8));
    const simple: Record<string, string> = {
      n: "\n",
      t: "\t",
      r: "\r",
      "\\": "\\",
      "'": "'",
      '"': '"',
      a: "\x07",
      b: "\b",
      f: "\f",
      v: "\v",
    };
    return simple[escaped] ?? `\\${escaped}`;
  });
}

/** Python's raw-unicode-escape, as protocol 0's UNICODE writes it (latin-1 plus \uXXXX and \UXXXXXXXX). */
function decodeRawUnicodeEscape(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})/g, (_, short?: string, long?: string) =>
    String.fromCodePoint(Number.parseInt((short ?? long)!, 16)),
  );
}

/** The bytes joblib writes after a NumpyArrayWrapper, from the wrapper's state (shape, dtype, alignment). */
function joblibArrayLayout(
  entries: Map<string, PickleValue>,
): { objectArray: true } | { objectArray: false; byteLength: number; aligned: boolean } | undefined {
  const dtype = entries.get("dtype");
  const shape = entries.get("shape");
  if (dtype?.t !== "obj" || !isGlobal(dtype, "numpy", "dtype")) return undefined;
  const descr = dtype.args?.t === "tuple" ? dtype.args.items?.[0] : undefined;
  if (descr?.t !== "str" || descr.s === undefined) return undefined;
  const kind = /^([a-zA-Z?])(\d*)/.exec(descr.s);
  if (!kind) return undefined;
  if (kind[1] === "O") return { objectArray: true };
  // numpy's dtype state tuple carries the element size at index 5 when it is not implied by the descr.
  const stateSize = dtype.state?.t === "tuple" ? dtype.state.items?.[5] : undefined;
  let itemSize = stateSize?.t === "int" && stateSize.n > 0 ? stateSize.n : Number(kind[2] || "0");
  if (kind[1] === "U" && !(stateSize?.t === "int" && stateSize.n > 0)) itemSize *= 4;
  if ((kind[1] === "M" || kind[1] === "m") && itemSize === 0) itemSize = 8;
  if (kind[1] === "?" || (kind[1] === "b" && itemSize === 0)) itemSize = Math.max(itemSize, 1);
  if (shape?.t !== "tuple" || !shape.items) return undefined;
  let count = 1;
  for (const dimension of shape.items) {
    if (dimension.t !== "int" || dimension.n < 0) return undefined;
    count *= dimension.n;
  }
  const byteLength = count * itemSize;
  if (!Number.isSafeInteger(byteLength)) return undefined;
  const alignment = entries.get("numpy_array_alignment_bytes");
  return { objectArray: false, byteLength, aligned: alignment !== undefined && alignment.t === "int" };
}
