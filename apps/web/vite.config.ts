import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { pagePreloadsPlugin } from "./build/page-preloads.js";
import { deliveryPlugin } from "./build/precompress.js";

// In development the hub serves the API, the router and the widget script; Vite proxies to it.
const hubUrl = process.env.HUB_URL ?? "http://127.0.0.1:8080";
const proxied = ["/api", "/router", "/widget"];

export default defineConfig({
  plugins: [react(), tailwindcss(), pagePreloadsPlugin(), deliveryPlugin()],
  resolve: { conditions: ["source"] },
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: hubUrl, changeOrigin: true }])),
  },
  // ES module workers may load chunks of their own (the chat-template worker's Unicode name table).
  worker: { format: "es" },
  build: {
    rolldownOptions: {
      // Our workspace packages are plain modules without import-time side effects: let the bundler drop
      // what a page does not use (the model page needs task names, not the whole catalogue).
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]packages[\\/][^\\/]+[\\/]src[\\/]/.test(id) },
    },
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
  },
});
