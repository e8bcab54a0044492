// Builds the boards' preview page (each fixture drawn by its board, for screenshots in
// headless Chromium): `npx vite build --config scripts/preview.config.ts`, then serve
// /tmp/necropolis-boards-preview on loopback. Not part of the shipped page.
import { defineConfig } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { resolve } from "node:path";

const web = resolve(import.meta.dirname, "..");

export default defineConfig({
  root: web,
  base: "./",
  plugins: [svelte()],
  build: {
    outDir: "/tmp/necropolis-boards-preview",
    emptyOutDir: true,
    target: "es2022",
    rollupOptions: { input: resolve(web, "scripts/preview.html") },
  },
});
