// Svelte's compiler options: TypeScript in components through Vite's preprocessor.
import { vitePreprocess } from "@sveltejs/vite-plugin-svelte";

export default {
  preprocess: vitePreprocess(),
};
