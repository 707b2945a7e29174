import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bytesSource, damagedVariants, fileSource, runVenvPython } from "./__fixtures__/scan-sources.js";
import { kerasScanner } from "./keras-scanner.js";

const dir = mkdtempSync(join(tmpdir(), "keras-scan-"));
const files = {
  keras: join(dir, "lambda.keras"),
  kerasClean: join(dir, "clean.keras"),
  h5: join(dir, "lambda.h5"),
  h5Weights: join(dir, "weights.h5"),
  h5VarString: join(dir, "custom.h5"),
};

// Keras and TensorFlow are too large for CI: the files are made in Keras' real layouts with zipfile and h5py
// (a Keras 3 `.keras` zip: config.json, metadata.json, model.weights.h5; a Keras 2 `.h5`: the model config
// as a UTF-8 JSON string attribute on the root group, weights in groups), with real marshalled bytecode.
const MAKE_FILES = `
import sys, json, base64, marshal, zipfile, io, h5py, numpy as np
keras_path, clean_path, h5_path, weights_path, var_path = sys.argv[1:6]
code = base64.b64encode(marshal.dumps((lambda x: x * 2).__code__)).decode()
policy = {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"}, "registered_name": None}
def layer(cls, config, module="keras.layers", registered=None):
    return {"module": module, "class_name": cls, "config": config, "registered_name": registered,
            "build_config": {"input_shape": [None, 4]}}
dense = layer("Dense", {"name": "dense", "trainable": True, "dtype": policy, "units": 4, "activation": "relu",
    "kernel_initializer": {"module": "keras.initializers", "class_name": "GlorotUniform", "config": {"seed": None}, "registered_name": None}})
lam = layer("Lambda", {"name": "double", "trainable": True, "dtype": policy,
    "function": {"class_name": "__lambda__", "config": {"code": code, "defaults": None, "closure": None}}, "arguments": {}})
custom = layer("MyDense", {"name": "mine", "units": 4}, module="my_package.layers", registered="my_package>MyDense")
def model(layers):
    return {"module": "keras", "class_name": "Sequential", "config": {"name": "sequential", "trainable": True, "dtype": policy,
        "layers": [{"module": "keras.layers", "class_name": "InputLayer", "config": {"batch_shape": [None, 4], "dtype": "float32", "name": "input_layer"}, "registered_name": None}] + layers},
        "registered_name": None, "build_config": {"input_shape": [None, 4]},
        "compile_config": {"optimizer": "adam", "loss": {"module": "os", "class_name": "function", "config": "system", "registered_name": "function"} if layers is not None and len(layers) == 3 else "mse"}}
def weights():
    buf = io.BytesIO()
    with h5py.File(buf, "w") as f:
        f.create_group("layers/dense/vars").create_dataset("0", data=np.ones((4, 4), dtype="f4"))
    return buf.getvalue()
def keras_zip(path, config):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("metadata.json", json.dumps({"keras_version": "3.10.0", "date_saved": "2026-11-29@10:00:00"}))
        z.writestr("config.json", json.dumps(config))
        z.writestr("model.weights.h5", weights())
keras_zip(keras_path, model([dense, lam, custom]))
keras_zip(clean_path, model([dense]))
# Keras 2 (tf.keras save_model_to_hdf5): Lambda function as [base64 bytecode, defaults, closure].
k2 = {"class_name": "Sequential", "config": {"name": "sequential", "layers": [
    {"class_name": "Dense", "config": {"name": "dense_1", "units": 4, "activation": "relu"}},
    {"class_name": "Lambda", "config": {"name": "lambda_1", "function": [code, None, None], "function_type": "lambda", "module": "__main__", "arguments": {}}}]}}
with h5py.File(h5_path, "w") as f:
    f.attrs["keras_version"] = b"2.15.0"
    f.attrs["backend"] = b"tensorflow"
    f.attrs["model_config"] = json.dumps(k2).encode("utf8")
    f.attrs["training_config"] = json.dumps({"loss": "mse", "optimizer_config": {"class_name": "Adam", "config": {}}}).encode("utf8")
    f.create_group("model_weights/dense_1").create_dataset("kernel", data=np.ones((64, 64), dtype="f4"))
with h5py.File(weights_path, "w") as f:
    f.attrs["layer_names"] = [b"dense_1"]
    f.create_group("dense_1").create_dataset("kernel", data=np.ones((4, 4), dtype="f4"))
custom2 = {"class_name": "Sequential", "config": {"name": "s", "layers": [{"class_name": "Custom>Attention", "config": {"name": "att"}}]}}
with h5py.File(var_path, "w") as f:
    f.attrs["model_config"] = json.dumps(custom2)
`;

beforeAll(async () => {
  await runVenvPython(MAKE_FILES, [
    files.keras,
    files.kerasClean,
    files.h5,
    files.h5Weights,
    files.h5VarString,
  ]);
}, 60_000);

describe("Keras scanner", () => {
  it("applies to .keras, and to .h5/.hdf5 with the HDF5 signature", () => {
    const hdf5 = readFileSync(files.h5).subarray(0, 64);
    expect(kerasScanner.appliesTo("m/model.keras", Buffer.from("PK"))).toBe(true);
    expect(kerasScanner.appliesTo("tf_model.h5", hdf5)).toBe(true);
    expect(kerasScanner.appliesTo("data.hdf5", hdf5)).toBe(true);
    expect(kerasScanner.appliesTo("notes.h5", Buffer.from("hello"))).toBe(false);
    expect(kerasScanner.appliesTo("model.safetensors", hdf5)).toBe(false);
  });

  it("finds a Lambda layer and custom objects in a .keras archive", async () => {
    const outcome = await kerasScanner.scan(fileSource(files.keras));
    expect(outcome.couldNotScan).toBeUndefined();
    expect(outcome.findings).toEqual([
      {
        scanner: "keras",
        safety: "dangerous",
        message:
          "Keras Lambda layer 'double' runs Python code when the model is loaded (marshalled Python bytecode)",
        location: "config.json.config.layers[2]",
      },
      {
        scanner: "keras",
        safety: "suspicious",
        message: "Keras custom object my_package.layers.MyDense is imported and run when the model is loaded",
        location: "config.json.config.layers[3]",
      },
      {
        scanner: "keras",
        safety: "dangerous",
        message: "Keras config imports os.system, which runs commands or code when the model is loaded",
        location: "config.json.compile_config.loss",
      },
    ]);
    expect(await kerasScanner.scan(fileSource(files.kerasClean))).toEqual({ findings: [] });
  });

  it("reads legacy .h5 model configs from the root group without reading the weights", async () => {
    const lambda = await kerasScanner.scan(fileSource(files.h5));
    expect(lambda).toEqual({
      findings: [
        {
          scanner: "keras",
          safety: "dangerous",
          message:
            "Keras Lambda layer 'lambda_1' runs Python code when the model is loaded (marshalled Python bytecode)",
          location: "model_config.config.layers[1]",
        },
      ],
    });
    expect(await kerasScanner.scan(fileSource(files.h5Weights))).toEqual({ findings: [] });
    const custom = await kerasScanner.scan(fileSource(files.h5VarString));
    expect(custom.findings.map((finding) => [finding.safety, finding.message])).toEqual([
      ["suspicious", "Keras custom object Custom>Attention is imported and run when the model is loaded"],
    ]);
  });

  it("gives a reason, never a crash or a hang, for malformed, truncated and bit-flipped files", {
    timeout: 30_000,
  }, async () => {
    const reason = async (bytes: Buffer, path: string) =>
      (await kerasScanner.scan(bytesSource(bytes, path))).couldNotScan;
    expect(await reason(Buffer.from("not a zip"), "m.keras")).toMatch(
      /^unreadable Keras file: not a readable zip archive/,
    );
    expect(await reason(Buffer.from("not hdf5 at all"), "m.h5")).toMatch(/no HDF5 signature/);
    for (const [path, name] of [
      [files.keras, "m.keras"],
      [files.h5, "m.h5"],
    ] as const) {
      const bytes = readFileSync(path);
      for (const variant of damagedVariants(bytes, 32)) {
        const outcome = await kerasScanner.scan(bytesSource(variant.bytes, name));
        if (outcome.couldNotScan !== undefined) {
          expect(outcome.couldNotScan, variant.label).toMatch(/^unreadable Keras file: /);
        }
      }
    }
  });
});
