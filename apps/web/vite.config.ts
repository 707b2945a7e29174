import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// In development the hub serves the API, the router and the widget script; Vite proxies to it.
const hubUrl = process.env.HUB_URL ?? "http://127.0.0.1:8080";
const proxied = ["/api", "/router", "/widget"];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { conditions: ["source"] },
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: hubUrl, changeOrigin: true }])),
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
  },
});
