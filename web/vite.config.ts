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
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What every page needs (Svelte, the lobby, the page's texts and helpers) travels
          // as one file rather than several small ones, each with its own headers; the
          // boards, the games' texts, the table, the replay and the rules' panel (with its
          // Markdown, fetched when a person opens the rules) stay in their own chunks.
          groups: [{ name: "page", test: /node_modules[\\/]svelte[\\/]|src[\\/](main\.ts|App\.svelte|lib[\\/](Lobby|GamePreview|Swatch|CopyLink|LangSwitch|api|i18n|template|storage|seats|choices)|boards[\\/](common|order|index|GenericBoard))/ }],
        },
      },
    },
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
