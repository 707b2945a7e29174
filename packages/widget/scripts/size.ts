/** Prints the embed's size, raw and gzipped. Run: npm run size -w packages/widget */
import { getTopProductsScript } from "../src/index.js";

const script = await getTopProductsScript();
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(
  `top-products.js: ${script.bytes} bytes (${kb(script.bytes)}) raw, ` +
    `${script.gzipBytes} bytes (${kb(script.gzipBytes)}) gzipped; budget 10 KB gzipped`,
);
