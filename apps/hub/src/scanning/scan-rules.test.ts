import { describe, expect, it } from "vitest";
import picklescan from "./__fixtures__/picklescan-globals.json" with { type: "json" };
import type { SafetyLevel } from "./scan-report.js";
import { classifyGlobal, SCAN_RULES } from "./scan-rules.js";

/**
 * Our verdicts against picklescan's published rules: every global picklescan calls dangerous is dangerous
 * here, and every other place the two differ is listed below with why (the test fails when the lists and the
 * rules drift apart).
 */

type PicklescanList = string[] | string;
const PICKLESCAN_UNSAFE = picklescan.unsafe as Record<string, PicklescanList>;
const PICKLESCAN_SAFE = picklescan.safe as Record<string, string[]>;

/** picklescan's own rule (scanner.py _build_scan_result_from_raw_globals), restated as data logic. */
function picklescanVerdict(module: string, name: string): SafetyLevel {
  let unsafe = PICKLESCAN_UNSAFE[module];
  if (unsafe === undefined && module.includes(".")) {
    const parts = module.split(".");
    for (let i = 1; i < parts.length; i++) {
      if (PICKLESCAN_UNSAFE[parts.slice(0, i).join(".")] === "*") {
        unsafe = "*";
        break;
      }
    }
  }
  if (module.includes("unknown") || name.includes("unknown")) return "dangerous";
  // A string value is tested with Python's `in`: a substring match.
  if (unsafe !== undefined && (unsafe === "*" || unsafe.includes(name))) return "dangerous";
  if (PICKLESCAN_SAFE[module]?.includes(name)) return "innocuous";
  return "suspicious";
}

/** Globals to compare on: every entry of both rule sets, "*" entries by a made-up name and a submodule. */
function candidates(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const add = (module: string, list: PicklescanList) => {
    if (list === "*") out.push([module, "anything"], [`${module}.sub`, "anything"]);
    else if (typeof list === "string") out.push([module, list], [module, list.slice(0, 3)]);
    else for (const name of list) out.push([module, name]);
  };
  for (const [module, list] of Object.entries(PICKLESCAN_UNSAFE)) add(module, list);
  for (const [module, list] of Object.entries(PICKLESCAN_SAFE)) add(module, list);
  for (const [module, list] of Object.entries(SCAN_RULES.deny)) add(module, list);
  for (const [module, list] of Object.entries(SCAN_RULES.allow)) add(module, list);
  out.push(["mymodule_unknown", "Thing"]);
  return out;
}

const RUNS_CODE = "runs commands or code: denied whole, where picklescan lists some of its functions or none";
const LOADS = "imports or loads code or other files (a nested load the scanner cannot see into)";
const REACHES_OUT = "reaches the network or the file system (exfiltration, SSRF, file writes)";
const WRAPS_CALLABLES =
  "builds callables from callables (partial, reduce...): picklescan matches 'partial' as a substring only";
const BUILTINS =
  "more builtins that reach the interpreter (setattr, delattr, globals, vars, input, memoryview...)";

/** Where we are stricter (dangerous; picklescan suspicious), by module, and why. */
const STRICTER: Record<string, string> = {
  _multiprocessing: RUNS_CODE,
  _posixsubprocess: RUNS_CODE,
  _thread: RUNS_CODE,
  code: RUNS_CODE,
  codeop: RUNS_CODE,
  concurrent: RUNS_CODE,
  distutils: RUNS_CODE,
  doctest: RUNS_CODE,
  ensurepip: RUNS_CODE,
  idlelib: RUNS_CODE,
  lib2to3: RUNS_CODE,
  multiprocessing: RUNS_CODE,
  platform: RUNS_CODE,
  setuptools: RUNS_CODE,
  signal: RUNS_CODE,
  site: RUNS_CODE,
  sysconfig: RUNS_CODE,
  threading: RUNS_CODE,
  trace: RUNS_CODE,
  cloudpickle: LOADS,
  dill: LOADS,
  imp: LOADS,
  importlib: LOADS,
  joblib: LOADS,
  marshal: LOADS,
  mlflow: LOADS,
  numpy: LOADS,
  pandas: LOADS,
  "pandas.io": LOADS,
  pkgutil: LOADS,
  shelve: LOADS,
  torch: LOADS,
  "torch._inductor.codecache": LOADS,
  "torch.hub": LOADS,
  "torch.serialization": LOADS,
  "torch.utils.bottleneck": LOADS,
  "torch.utils.collect_env": LOADS,
  types: LOADS,
  zipimport: LOADS,
  _io: REACHES_OUT,
  ftplib: REACHES_OUT,
  glob: REACHES_OUT,
  "http.client": REACHES_OUT,
  httpx: REACHES_OUT,
  io: REACHES_OUT,
  pathlib: REACHES_OUT,
  requests: REACHES_OUT,
  smtplib: REACHES_OUT,
  telnetlib: REACHES_OUT,
  tempfile: REACHES_OUT,
  urllib: REACHES_OUT,
  urllib3: REACHES_OUT,
  xmlrpc: REACHES_OUT,
  functools: WRAPS_CALLABLES,
  builtins: BUILTINS,
};

/** Where we allow what picklescan calls suspicious, by module, and why. */
const MORE_LENIENT: Record<string, string> = {
  _codecs: "_codecs.encode is how Python 3 writes bytes at protocols 0-2; it only encodes text",
  builtins:
    "plain data types (set, frozenset, bytearray, slice, complex, range...): constructing them runs no code",
  collections:
    "defaultdict, Counter and deque beside OrderedDict: containers (a defaultdict factory is a global judged on its own)",
  copyreg:
    "copyreg._reconstructor is how protocols 0-1 rebuild plain objects; the class it gets is judged on its own",
  datetime: "date and time values",
  decimal: "decimal.Decimal values",
  fractions: "fractions.Fraction values",
  "joblib.numpy_pickle": "NumpyArrayWrapper only describes an array whose bytes follow in the file",
  "numpy._core.multiarray":
    "numpy.*.multiarray.scalar rebuilds a numpy scalar from bytes, as _reconstruct an array",
  "numpy.core.multiarray":
    "numpy.*.multiarray.scalar rebuilds a numpy scalar from bytes, as _reconstruct an array",
  "numpy.dtypes": "numpy 2's dtype classes: descriptions of element types",
  torch:
    "torch dtypes, Size, device, UntypedStorage and layouts, which torch.save writes for ordinary tensors",
  "torch._tensor": "_rebuild_from_type_v2, torch.save's way to rebuild a tensor subclass from a tensor",
  "torch._utils":
    "the other _rebuild_* helpers torch.save writes (parameters, quantized, sparse, meta tensors)",
  "torch.nn.parameter": "Parameter wraps a tensor, as torch._utils._rebuild_parameter does",
};

/** Where picklescan says dangerous and we do not: only its placeholder quirk. */
const NOT_DANGEROUS_HERE: Record<string, string> = {
  "mymodule_unknown.Thing":
    "picklescan marks unresolvable STACK_GLOBAL operands with the word 'unknown' and then calls any global " +
    "containing 'unknown' dangerous; we mark them with a module no import can have ('<unresolvable>'), so a " +
    "real module named *unknown* is judged by the lists (suspicious unless listed).",
};

describe("our rules against picklescan's", () => {
  it("call every global picklescan calls dangerous dangerous too, '__builtin__' and submodules included", () => {
    const missed: string[] = [];
    for (const [module, list] of Object.entries(PICKLESCAN_UNSAFE)) {
      const names =
        list === "*" ? ["anything", "system"] : typeof list === "string" ? [list, list.slice(0, 3)] : list;
      for (const name of names) {
        if (classifyGlobal(module, name) !== "dangerous") missed.push(`${module}.${name}`);
        if (list === "*" && classifyGlobal(`${module}.sub`, name) !== "dangerous")
          missed.push(`${module}.sub.${name}`);
      }
    }
    expect(missed).toEqual([]);
  });

  it("differ from picklescan only where listed, with a reason", () => {
    const stricter = new Set<string>();
    const lenient = new Set<string>();
    const notDangerous = new Set<string>();
    for (const [module, name] of candidates()) {
      const theirs = picklescanVerdict(module, name);
      const ours = classifyGlobal(module, name);
      if (theirs === ours) continue;
      if (theirs === "dangerous") notDangerous.add(`${module}.${name}`);
      else if (ours === "dangerous") stricter.add(module.replace(/\.sub$/, ""));
      else if (ours === "innocuous") lenient.add(module);
      else stricter.add(module.replace(/\.sub$/, ""));
    }
    expect([...notDangerous].sort()).toEqual(Object.keys(NOT_DANGEROUS_HERE).sort());
    expect([...stricter].sort()).toEqual(Object.keys(STRICTER).sort());
    expect([...lenient].sort()).toEqual(Object.keys(MORE_LENIENT).sort());
    for (const why of [...Object.values(STRICTER), ...Object.values(MORE_LENIENT)])
      expect(why.length).toBeGreaterThan(10);
  });

  it("judge the usual model globals as expected", () => {
    expect(classifyGlobal("torch._utils", "_rebuild_tensor_v2")).toBe("innocuous");
    expect(classifyGlobal("__builtin__", "set")).toBe("innocuous");
    expect(classifyGlobal("builtins", "getattr")).toBe("dangerous");
    expect(classifyGlobal("builtins", "getattr.__call__")).toBe("dangerous");
    expect(classifyGlobal("os.path", "join")).toBe("dangerous");
    expect(classifyGlobal("sklearn.linear_model._base", "LinearRegression")).toBe("suspicious");
    expect(classifyGlobal("<unresolvable>", "STACK_GLOBAL operands 1, 2")).toBe("dangerous");
  });
});
