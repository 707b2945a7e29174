declare module "lz4js" {
  function compress(src: Uint8Array, maxSize?: number): ArrayLike<number>;
  function decompress(src: Uint8Array, maxSize?: number): ArrayLike<number>;
  function decompressBlock(
    src: Uint8Array,
    dst: Uint8Array,
    sIndex: number,
    sLength: number,
    dIndex: number,
  ): number;
  const lz4: {
    compress: typeof compress;
    decompress: typeof decompress;
    decompressBlock: typeof decompressBlock;
  };
  export default lz4;
}
