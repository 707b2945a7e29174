import { describe, expect, it } from "vitest";
import { hashToHex, hexToHash, MalformedHashError, type SizedHash, XetHashing } from "./hashes.js";

// Reference values of the specification's reference implementation (aggregated hash correctness vectors).
const A = "cfc5d07f6f03c29bbf424132963fe08d19a37d5757aaf520bf08119f05cd56d6";
const B = "c3e67584b5c4fc2a89837ec39e40f2c8a6bb0b2987ac94cd4b31e5fbdd210a72";
const C = "0d2beb91b9196929a5ddec9f6e306924ddf4a24268e3e59fd8464738d525af37";
const D = "adf8773496a9b7319b2e50dc98093f344053b17d8ad37100b9c07d9805988784";
const Z = "0".repeat(64);
const leaves = (list: Array<[string, number]>): SizedHash[] =>
  list.map(([h, size]) => ({ hash: hexToHash(h), size }));

describe("hash strings", () => {
  it("reverse the bytes of each 8-byte group (the specification's example)", () => {
    const hash = Uint8Array.from({ length: 32 }, (_, i) => i);
    // The specification prints this with the byte 0x10 dropped (62 digits); the reordering it describes is this.
    expect(hashToHex(hash)).toBe("07060504030201000f0e0d0c0b0a09081716151413121110" + "1f1e1d1c1b1a1918");
    expect(hexToHash(hashToHex(hash))).toEqual(hash);
  });

  it("refuse anything but 64 lowercase hex digits", () => {
    expect(() => hexToHash("ABCD")).toThrow(MalformedHashError);
    expect(() => hexToHash("g".repeat(64))).toThrow(MalformedHashError);
  });
});

describe("aggregated hashes", () => {
  const vectors: Array<[Array<[string, number]>, string, string]> = [
    [[], Z, Z],
    [[[Z, 0]], Z, "638a6bc391964a85939d48f008e8bdbae6a7975e7ca2d87a3ce2492f4e4d8a4c"],
    [[[A, 100]], A, "8e16257caa3fe079d484d872a8975264b2ff683b0d6db9028cc7c0f968a45661"],
    [
      [
        [A, 100],
        [B, 200],
        [C, 300],
      ],
      "71ec1275fca074724e2dd666921b3277c7cee603e4d025bcab2d4050015be2bc",
      "54e55dccc6653c612bdb5576c5d3cb34bb31bc4e100248abccf4c908b3ef7715",
    ],
    [
      [
        [A, 100],
        [A, 100],
        [A, 100],
        [A, 100],
      ],
      "89f2ada89ff8c96763c6b25010e6dd76a4c05b1466207633ea559acf2093211b",
      "2cdba690d0e09563596e0cda626d43eb4c96ef1e994fe72d9b2f5a83cfcd36dd",
    ],
    [
      [
        [A, 100],
        [B, 200],
        [A, 100],
        [B, 200],
        [C, 300],
        [D, 400],
      ],
      "52c826f99507aa05d0b45e9837fa1709e0485425cfbcb1e80db3905cf98b3ee9",
      "91d21684db364c8883ab8209fa5eb2e781cf07f37e1fa43e731c30839afe422f",
    ],
    [
      [
        [Z, 0],
        [A, 100],
        [Z, 0],
        [A, 100],
        [Z, 0],
      ],
      "f36c6a6374a567efd36ed087aeb680b57e3af4e0b5b8e7be2593df4cb647a2de",
      "ab2f46d31855e1133b3b5b70e78f841394a648710a208923b221c1a8a0572a1f",
    ],
  ];

  // Both BLAKE3 backends (blake3.ts): the native one the hub uses, and hash-wasm where it does not load.
  const backends = ["native", "wasm"] as const;
  it.each(backends.flatMap((backend) => vectors.map((v, i) => [backend, i, ...v] as const)))(
    "%s, vector %i: xorb hash and file hash",
    async (backend, _i, list, xorb, file) => {
      const hashing = await XetHashing.create(backend);
      expect(hashToHex(hashing.xorbHash(leaves(list)))).toBe(xorb);
      // The reference's empty file hash is all zeros too (no chunks, no keyed rehash).
      expect(hashToHex(hashing.fileHash(leaves(list)))).toBe(list.length === 0 ? Z : file);
    },
  );
});
