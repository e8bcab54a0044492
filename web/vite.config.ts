// Vite builds the page into the Python package, so `necropolis serve` serves it without Node.
import { defineConfig } from "vitest/config";
import { svelte } from "@sveltejs/vite-plugin-svelte";

export default defineConfig(({ mode }) => ({
  plugins: [svelte()],
  // Component tests mount Svelte in jsdom: resolve Svelte's browser build, not its server one.
  resolve: mode === "test" ? { conditions: ["browser"] } : undefined,
  build: {
    outDir: "../src/necropolis/server/static",
    emptyOutDir: true,
    target: "es2022",
  },
  server: {
    // During development the page talks to a `necropolis serve` running on port 8000.
    proxy: {
      "/api": "http://127.0.0.1:8000",
      "/ws": { target: "ws://127.0.0.1:8000", ws: true },
    },
  },
  test: {
    include: ["src/**/*.test.ts"],
  },
}));
