/** The page's entry: mounts the app. */
import { mount } from "svelte";
import App from "./App.svelte";
import { loadPageTexts, locale } from "./lib/i18n.svelte";
import "./app.css";

// The page's texts in the browser's language before anything is drawn (English comes with the page).
await loadPageTexts(locale.lang).catch(() => {});

const app = mount(App, { target: document.getElementById("app")! });

export default app;
