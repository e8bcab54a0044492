/** The boards' preview page: one fixture (chosen by ?f=name&lang=xx) drawn by its board. */
import { mount } from "svelte";
import Preview from "./Preview.svelte";
import { boardGames, loadBoard } from "../index";
import { loadEveryText } from "../../lib/i18n.svelte";

// The boards and the games' texts are fetched as a page needs them: the preview draws any.
await Promise.all(boardGames.map((game) => loadBoard(game)));
await loadEveryText();
mount(Preview, { target: document.getElementById("app")! });
