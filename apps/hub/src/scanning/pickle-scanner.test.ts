import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VENV_PYTHON } from "../__fixtures__/python-client.js";
import { bytesSource as bytesSourceIn, fileSource } from "./__fixtures__/scan-sources.js";
import { SCANNER_RULES_VERSION, scanFile } from "./scan-file.js";
import type { FileScanReport } from "./scan-report.js";

/**
 * The pickle-family scanners against a corpus Python makes (pickle at protocols 0-5, torch.save's layouts,
 * numpy, joblib), compared with pickletools.genops' reading; known scanner bypasses; damaged files.
 */

const CORPUS_SCRIPT = fileURLToPath(new URL("./__fixtures__/pickle-corpus.py", import.meta.url));

interface CorpusEntry {
  file: string;
  kind: string;
  malicious: boolean;
  imports: Array<[string, string]> | null;
}

/** Bytes in memory, in 7-byte chunks so that chunk boundaries fall inside opcodes. */
const bytesSource = (bytes: Buffer, repoPath: string) => bytesSourceIn(bytes, repoPath, 7);

function importKeys(report: FileScanReport): string[] {
  return report.pickleImports.map((found) => `${found.module}.${found.name}`).sort();
}

function safetyOf(report: FileScanReport, module: string, name: string): string | undefined {
  return report.pickleImports.find((found) => found.module === module && found.name === name)?.safety;
}

/** Hand-assembled pickle bytes (for bypasses Python's pickler never writes). */
function op(...parts: Array<string | number[] | Buffer>): Buffer {
  return Buffer.concat(
    parts.map((part) =>
      typeof part === "string" ? Buffer.from(part, "latin1") : Buffer.from(part as number[]),
    ),
  );
}
function shortUnicode(text: string): Buffer {
  const bytes = Buffer.from(text, "utf8");
  return Buffer.concat([Buffer.from([0x8c, bytes.length]), bytes]);
}

const hasPython = existsSync(VENV_PYTHON);
/** joblib comes with scripts/setup-python.sh; an older virtualenv without it skips the joblib cases only. */
const hasJoblib = hasPython && spawnSync(VENV_PYTHON, ["-c", "import joblib"]).status === 0;
let dir = "";
let corpus: CorpusEntry[] = [];

beforeAll(async () => {
  if (!hasPython) return;
  dir = mkdtempSync(join(tmpdir(), "pickle-corpus-"));
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(VENV_PYTHON, [CORPUS_SCRIPT, dir], { timeout: 60_000, maxBuffer: 8 << 20 }, (error, out, err) =>
      error ? reject(new Error(`corpus script failed: ${err || error.message}`)) : resolve(out),
    ),
  );
  corpus = JSON.parse(stdout) as CorpusEntry[];
}, 90_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const scanCorpusFile = (file: string) => scanFile(fileSource(join(dir, file), file));

describe.skipIf(!hasPython)("the corpus Python makes", () => {
  it("covers every kind the scanners read", () => {
    const kinds = new Set(corpus.map((entry) => entry.kind));
    const required = ["pickle", "nested", "torch-zip", "torch-legacy", "torch-tar", "npy", "npz"];
    for (const kind of hasJoblib ? [...required, "joblib"] : required) {
      expect(kinds, kind).toContain(kind);
    }
    expect(corpus.filter((entry) => entry.kind === "pickle").length).toBeGreaterThanOrEqual(6 * 8);
  });

  it("reports exactly the imports pickletools.genops finds, and flags every malicious file unsafe", async () => {
    const mismatches: string[] = [];
    for (const entry of corpus) {
      const report = await scanCorpusFile(entry.file);
      const expectedVerdict = entry.malicious ? "unsafe" : "safe";
      if (report.verdict !== expectedVerdict) {
        mismatches.push(
          `${entry.file}: verdict ${report.verdict} (${report.reason ?? ""}), expected ${expectedVerdict}`,
        );
      }
      if (entry.imports) {
        const expected = entry.imports.map(([module, name]) => `${module}.${name}`).sort();
        const got = importKeys(report);
        if (JSON.stringify(got) !== JSON.stringify(expected)) {
          mismatches.push(`${entry.file}: imports ${got.join(", ")} but genops reads ${expected.join(", ")}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 60_000);

  it.skipIf(!hasJoblib)(
    "reads joblib files as joblib.load does: arrays skipped, object arrays' pickles scanned, zlib too",
    async () => {
      for (const file of ["joblib_benign.joblib", "joblib_benign_zlib.joblib"]) {
        const report = await scanCorpusFile(file);
        expect(report.verdict, `${file}: ${report.reason}`).toBe("safe");
        expect(importKeys(report)).toEqual(
          expect.arrayContaining(["joblib.numpy_pickle.NumpyArrayWrapper", "numpy.dtype", "numpy.ndarray"]),
        );
      }
      for (const file of ["joblib_malicious.joblib", "joblib_malicious_zlib.joblib"]) {
        const report = await scanCorpusFile(file);
        expect(report.verdict).toBe("unsafe");
        expect(safetyOf(report, "posix", "system")).toBe("dangerous");
      }
    },
  );

  it.skipIf(!hasJoblib)(
    "reads gzip-compressed joblib files; bz2, xz, lzma and lz4 ones are could-not-scan with the reason",
    async () => {
      const gzip = await scanCorpusFile("joblib_malicious_gzip.joblib");
      expect(gzip.verdict).toBe("unsafe");
      expect(safetyOf(gzip, "posix", "system")).toBe("dangerous");
      for (const method of ["bz2", "xz", "lzma"]) {
        const report = await scanCorpusFile(`joblib_malicious_${method}.joblib`);
        expect(report.verdict, method).toBe("could-not-scan");
        expect(report.reason).toContain(`${method}-compressed content (joblib compress="${method}")`);
        expect(report.reason).toMatch(/decompresses gzip and zlib only/);
      }
      // joblib's own name for a compressed dump: the pickle scanner applies (not "no scanner applies").
      const named = await scanCorpusFile("model.pkl.xz");
      expect(named).toMatchObject({ verdict: "could-not-scan", scanners: ["pickle"] });
      // lz4 needs Python's lz4 package (not in the virtualenv): its frame magic, as joblib writes it first.
      const lz4 = Buffer.concat([Buffer.from("04224d18", "hex"), Buffer.alloc(32, 1)]);
      const lz4Report = await scanFile(bytesSource(lz4, "model.joblib"));
      expect(lz4Report.verdict).toBe("could-not-scan");
      expect(lz4Report.reason).toContain('lz4-compressed content (joblib compress="lz4")');
    },
  );

  it("reads torch's legacy tar format, storages and tensors members included", async () => {
    const report = await scanCorpusFile("torch_tar_benign.tar");
    expect(report.scanners).toContain("tar");
    expect(report.verdict).toBe("safe");
    expect(report.pickleImports.map((found) => found.safety)).not.toContain("suspicious");
  });
});

describe.skipIf(!hasPython)("known scanner bypasses from public issue trackers", () => {
  it("modelscan#267: a pickle given to pickle.loads inside a pickle is scanned too", async () => {
    // The inner payload of the issue: builtins.print called through a nested pickle.loads.
    const inner = "cbuiltins\nprint\n(S'This pickle has been exploited!'\ntR.";
    const outer = op(
      [0x80, 0x04],
      shortUnicode("pickle"),
      shortUnicode("loads"),
      [0x93],
      "C",
      [inner.length],
      inner,
      [0x85],
      "R.",
    );
    const report = await scanFile(bytesSource(outer, "nested_exploit.pickle"));
    expect(report.verdict).toBe("unsafe");
    expect(safetyOf(report, "pickle", "loads")).toBe("dangerous");
    expect(safetyOf(report, "builtins", "print")).toBe("suspicious");
  });

  it("picklescan#14: a memo set up with BINPUT and MEMOIZE mixed cannot disguise os.system", async () => {
    const data = op(
      [0x80, 0x04],
      shortUnicode("os"),
      "q",
      [0],
      shortUnicode("system"),
      "q",
      [1],
      shortUnicode("torch._utils"),
      [0x94], // memo[2]
      shortUnicode("_rebuild_tensor_v2"),
      [0x94], // memo[3]
      "0000",
      "h",
      [0],
      "h",
      [1],
      [0x93],
      shortUnicode("id"),
      [0x85],
      "R.",
    );
    const report = await scanFile(bytesSource(data, "memo.pkl"));
    expect(importKeys(report)).toEqual(["os.system"]);
    expect(report.verdict).toBe("unsafe");
  });

  it("picklescan#22 (PR #23): out-of-order PUT indices resolve to the strings really stored", async () => {
    const data = op(
      "Vos\np2\n0Vsystem\np3\n0Vtorch\np0\n0VLongStorage\np1\n0",
      "g2\ng3\n",
      [0x93],
      "(Vcat flag.txt\ntR.",
    );
    const report = await scanFile(bytesSource(data, "ctf.pkl"));
    expect(importKeys(report)).toEqual(["os.system"]);
    expect(report.verdict).toBe("unsafe");
  });

  it("modelscan#85: STACK_GLOBAL operands that are not strings are an unresolvable, dangerous import", async () => {
    const data = op(
      "\x80\x05cnumpy\nprod\np0\ncnumpy\nprod\np1\n0",
      "g0\ng1\n",
      [0x93],
      "Vecho pwned!!!\n",
      [0x85],
      "R.",
    );
    const report = await scanFile(bytesSource(data, "out.pkl"));
    expect(report.verdict).toBe("unsafe");
    expect(report.pickleImports.find((found) => found.module === "<unresolvable>")?.safety).toBe("dangerous");
  });

  it("modelscan#330: numpy.__builtins__ reached through an allow-listed module is dangerous", async () => {
    const hex =
      "80049566000000000000008c056e756d70798c0473697a659394948c056e756d70798c0c5f5f6275696c74696e735f5f93949468017d7d8c0573686170656803738662680168018c046576616c86528c1d5f5f696d706f72745f5f28226f7322292e73797374656d28226964222985522e";
    const report = await scanFile(bytesSource(Buffer.from(hex, "hex"), "numpy_allowlist.pkl"));
    expect(safetyOf(report, "numpy", "__builtins__")).toBe("dangerous");
    expect(report.verdict).toBe("unsafe");
    // The second call's target is what the first call returned: reported as a gadget chain.
    expect(report.findings.map((finding) => finding.message).join()).toContain("another call returned");
  });

  it("modelscan#338: alternative execution primitives (collect_env.run, multiprocessing, pandas readers) are dangerous", async () => {
    const globals = [
      ["torch.utils.collect_env", "run"],
      ["multiprocessing.util", "spawnv_passfds"],
      ["pandas.io.parsers.readers", "read_csv"],
      ["mlflow.projects.backend.local", "_run_entry_point"],
    ];
    for (const [module, name] of globals) {
      const data = op("c", `${module}\n${name}\n`, "(S'x'\ntR.");
      const report = await scanFile(bytesSource(data, "alt.pkl"));
      expect(safetyOf(report, module!, name!), `${module}.${name}`).toBe("dangerous");
    }
  });

  it("protocol 0-2 name builtins __builtin__: __builtin__.eval is as dangerous as builtins.eval", async () => {
    const report = await scanFile(bytesSource(op("c__builtin__\neval\n(S'1+1'\ntR."), "p0.pkl"));
    expect(safetyOf(report, "__builtin__", "eval")).toBe("dangerous");
  });

  it("protocol 0 INST calls its global directly: INST os system is dangerous", async () => {
    const report = await scanFile(bytesSource(op("(S'echo pwned'\nios\nsystem\n."), "inst.pkl"));
    expect(importKeys(report)).toEqual(["os.system"]);
    expect(report.verdict).toBe("unsafe");
  });

  it("_codecs.encode: protocol 2 nested pickles carried as text are decoded and scanned", async () => {
    const report = await scanCorpusFile("p2_nested.pkl");
    expect(safetyOf(report, "_codecs", "encode")).toBe("innocuous");
    expect(safetyOf(report, "posix", "system")).toBe("dangerous");
  });

  it("pip-installable module names: pip and its submodules are dangerous (picklescan's 'pip' entry)", async () => {
    const report = await scanFile(bytesSource(op("cpip._internal.cli.main\nmain\n(]tR."), "pip.pkl"));
    expect(safetyOf(report, "pip._internal.cli.main", "main")).toBe("dangerous");
  });

  it("extension codes (EXT1/2/4) name globals the scanner cannot see: dangerous", async () => {
    const report = await scanFile(bytesSource(op([0x80, 0x02, 0x82, 0x07], "."), "ext.pkl"));
    expect(report.verdict).toBe("unsafe");
  });

  it("GHSA-769v-p64c-89pr: a pickle member with a non-standard name inside a PyTorch zip is scanned", async () => {
    const report = await scanCorpusFile("torch_zip_hidden_member.pt");
    expect(safetyOf(report, "__builtin__", "exec")).toBe("dangerous");
  });

  it("GHSA-w8jq-xcqf-f792: a zip member flag bit torch ignores does not hide data.pkl", async () => {
    const report = await scanCorpusFile("torch_zip_flag_bit.pt");
    expect(report.verdict).toBe("unsafe");
    expect(safetyOf(report, "posix", "system")).toBe("dangerous");
  });

  it("a pickle under a name no scanner claims (config.txt, weights.bin) is still read from its first bytes", async () => {
    const bytes = readFileSync(join(dir, "p4_os_system.pkl"));
    for (const name of ["config.txt", "weights.bin", "model.data"]) {
      const report = await scanFile(bytesSource(bytes, name));
      expect(report.verdict, name).toBe("unsafe");
    }
  });

  it("saferpickle#46: a zip starting with the spanned-archive marker is never called safe", async () => {
    const zip = readFileSync(join(dir, "torch_zip_malicious.bin"));
    const report = await scanFile(
      bytesSource(Buffer.concat([Buffer.from("PK\x07\x08", "latin1"), zip]), "m.bin"),
    );
    expect(report.verdict).not.toBe("safe");
  });
});

describe.skipIf(!hasPython)("damaged files: could not scan, with a reason, never a crash or a hang", () => {
  const samples = [
    "p0_benign.pkl",
    "p4_benign.pkl",
    "p5_os_system.pkl",
    "torch_zip_benign.pt",
    "torch_legacy_benign.pt",
    "torch_tar_benign.tar",
    "object_benign.npy",
    "arrays_benign.npz",
    ...(hasJoblib ? ["joblib_benign.joblib"] : []),
  ];

  it("truncations give could-not-scan with a reason", async () => {
    const wrong: string[] = [];
    for (const file of samples) {
      const bytes = readFileSync(join(dir, file));
      // Cut to 1 or 9 bytes, a tar or zip is no longer recognisable (no scanner applies: "safe" is right).
      const archive = file.endsWith(".tar") || file.endsWith(".npz");
      // The legacy format ends with raw storage bytes torch reads without unpickling: cutting those is not checked.
      const rawTail = file === "torch_legacy_benign.pt";
      const cuts = [
        ...(archive ? [] : [1, 9]),
        Math.floor(bytes.length / 3),
        ...(rawTail ? [] : [bytes.length - 1]),
      ];
      for (const keep of cuts) {
        const report = await scanFile(bytesSource(bytes.subarray(0, keep), file));
        const acceptable =
          report.verdict === "could-not-scan" ? Boolean(report.reason) : report.verdict === "unsafe";
        if (!acceptable) wrong.push(`${file} cut to ${keep}: ${report.verdict} ${report.reason ?? ""}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 30_000);

  it("bit flips never throw or hang", async () => {
    for (const file of samples) {
      const bytes = readFileSync(join(dir, file));
      for (let i = 0; i < 12; i++) {
        const flipped = Buffer.from(bytes);
        const at = (i * 2654435761) % Math.min(bytes.length, 2048);
        flipped[at] = flipped[at]! ^ (1 << (i % 8));
        const report = await scanFile(bytesSource(flipped, file));
        expect(["safe", "suspicious", "unsafe", "could-not-scan"]).toContain(report.verdict);
        if (report.verdict === "could-not-scan") expect(report.reason).toBeTruthy();
      }
    }
  }, 30_000);

  it("bounds the stack and the nesting of pickles", async () => {
    const marks = await scanFile(bytesSource(op([0x80, 0x04], "(".repeat(100_001), "."), "deep.pkl"));
    expect(marks.verdict).toBe("could-not-scan");
    expect(marks.reason).toContain("stack deeper than 100000");
    // pickle.loads(pickle.loads(...)) ten levels deep: dangerous at once, and the nesting stops at its limit.
    let nested = op([0x80, 0x04], "N.");
    for (let level = 0; level < 10; level++) {
      const length = Buffer.alloc(4);
      length.writeUInt32LE(nested.length);
      nested = op(
        [0x80, 0x04],
        shortUnicode("pickle"),
        shortUnicode("loads"),
        [0x93],
        "B",
        length,
        nested,
        [0x85],
        "R.",
      );
    }
    const report = await scanFile(bytesSource(nested, "nested.pkl"));
    expect(report.verdict).toBe("unsafe");
    expect(report.findings.map((finding) => finding.message).join()).toContain(
      "pickles nested deeper than 8",
    );
  });

  it("says which byte is wrong", async () => {
    const report = await scanFile(bytesSource(op([0x80, 0x04, 0x4e, 0xff], "."), "bad.pkl"));
    expect(report.verdict).toBe("could-not-scan");
    expect(report.reason).toContain("unknown opcode 0xff at byte 3");
  });
});

describe("the dispatcher", () => {
  it("calls a file no scanner applies to safe, and the antivirus not-scanned when there is none", async () => {
    // Binary (a NUL in its head: not text for the secrets scanner) and of no format a scanner reads.
    const png = Buffer.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
    ]);
    const report = await scanFile(bytesSource(png, "images/logo.png"));
    expect(report).toMatchObject({ verdict: "safe", scanners: [], pickleImports: [], findings: [] });
    expect(report.antivirus.status).toBe("not-scanned");
    expect(report.antivirus.reason).toMatch(/antivirus/);
  });

  it("runs the given antivirus, and an infected file is unsafe", async () => {
    const report = await scanFile(bytesSource(Buffer.from("X5O!P%@AP"), "eicar.txt"), {
      antivirus: async () => ({ status: "infected", virusNames: ["Eicar-Test-Signature"] }),
    });
    expect(report.verdict).toBe("unsafe");
    expect(report.antivirus.virusNames).toEqual(["Eicar-Test-Signature"]);
  });

  it("could-not-scan wins over suspicious, unsafe over could-not-scan; a throwing scanner is never safe", async () => {
    const source = bytesSource(Buffer.from("x"), "a.bin");
    const scanner = (id: string, outcome: object) => ({
      id,
      appliesTo: () => true,
      scan: async () => outcome as never,
    });
    const suspicious = scanner("s", { findings: [{ scanner: "s", safety: "suspicious", message: "odd" }] });
    const broken = scanner("b", { findings: [], couldNotScan: "truncated at byte 1" });
    const dangerous = scanner("d", {
      findings: [],
      pickleImports: [{ module: "os", name: "system", safety: "dangerous" }],
    });
    const throwing = { id: "t", appliesTo: () => true, scan: async () => Promise.reject(new Error("bug")) };
    expect((await scanFile(source, { scanners: [suspicious, broken] })).verdict).toBe("could-not-scan");
    expect((await scanFile(source, { scanners: [suspicious, broken, dangerous] })).verdict).toBe("unsafe");
    const report = await scanFile(source, { scanners: [throwing] });
    expect(report.verdict).toBe("could-not-scan");
    expect(report.reason).toContain("t: scanner failed: bug");
  });

  it("stamps its rules version from a code constant and the rules data file", () => {
    expect(SCANNER_RULES_VERSION).toMatch(/^\d+-[0-9a-f]{12}$/);
  });
});
